/**
 * The tables the explorer's browser test and its screenshots use: seed examples whose keys the
 * explorer decodes, a table with problems for the advisor, and one of hostile keys, names and values.
 */
import { DateTime, type Store, type TransactionAction } from "../../src/index.js";
import { invertedTicks, paddedInt } from "../../src/keys/index.js";
import { defineVersioned, field } from "../../src/patterns/index.js";
import { Employee, Location } from "../patterns/models.js";
import { PROTOTYPE_NAMES } from "./prototype-names.js";

/** Values that would run script if any page inserted them as markup. */
export const HOSTILE_VALUES = [
  "<script>window.__xss = 1</script>",
  `"'><img src=x onerror="window.__xss = 2">`,
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a value that must stay text, never run.
  "`${window.__xss = 3}`",
];
/** Keys cannot hold `/`: hostile keys without it. */
export const HOSTILE_PARTITION = `"><img src=x onerror=window.__xss=4>`;
export const HOSTILE_ROW = "<svg onload=window.__xss=5>";

export const EXPLORER_MODELS = [Employee, Location] as const;

export async function buildExplorerFixture(store: Store): Promise<void> {
  for (const t of ["Posts", "Orders", "Employees", "Locations", "Audits", "Many", "Hostile"])
    await store.createTable(t);

  // Seed 002's blog posts, newest first by inverted ticks.
  const posts = store.table("Posts");
  for (const [day, title] of [
    ["2010-05-28", "Windows Azure Table Storage patterns"],
    ["2010-05-27", "Patterns for Azure"],
    ["2009-04-21", "ScrumWall"],
  ] as const) {
    const at = new Date(`${day}T00:00:00Z`);
    await posts.createEntity({
      partitionKey: "Marcus",
      rowKey: invertedTicks().encode(at),
      Title: title,
      DatePosted: DateTime.fromDate(at),
    });
  }

  // Numbers that sort as strings, and a price stored as two types: the advisor's examples.
  const orders = store.table("Orders");
  for (const [rowKey, Price] of [
    ["1", 5],
    ["2", { value: 5.5, type: "Double" }],
    ["10", 7],
    ["11", 12],
  ] as const) {
    await orders.createEntity({
      partitionKey: "customer-42",
      rowKey,
      Price,
      Total: 100n * BigInt(rowKey),
      Shipped: rowKey !== "11",
    });
  }

  const employees = Employee.on(store);
  for (const [id, first, last] of [
    [123, "Jo", "Jones"],
    [223, "Ada", "Lovelace"],
    [7, "Grace", "Hopper"],
  ] as const) {
    await employees.create({
      department: "Sales",
      id,
      email: `${first.toLowerCase()}@contoso.com`,
      firstName: first,
      lastName: last,
      age: 30 + (id % 20),
    });
  }
  const places = Location.on(store);
  for (const [country, region, state, city] of [
    ["us", "wa", "king", "seattle"],
    ["us", "wa", "king", "bellevue"],
    ["us", "ny", "new york", "new york"],
  ] as const) {
    await places.create({ kind: "place", country, region, state, city, population: 700000n });
  }
  const audits = defineVersioned({
    table: "Audits",
    fields: { equipment: field.string(), result: field.string() },
    partitionKey: (k) => k.field("equipment"),
    item: (k) => k.literal("Audit"),
  }).on(store);
  for (const result of ["pass", "fail", "pass"]) await audits.write({ equipment: "Equipment_1", result });

  // Enough rows for paging (pages of 50).
  const many = store.table("Many");
  const ids = paddedInt({ max: 999 });
  const actions: TransactionAction[] = [];
  for (let i = 0; i < 120; i++) actions.push(["create", { partitionKey: "p", rowKey: ids.encode(i), n: i }]);
  for (let i = 0; i < actions.length; i += 100) await many.submitTransaction(actions.slice(i, i + 100));

  const hostile = store.table("Hostile");
  const props: Record<string, string> = {};
  for (const [i, name] of PROTOTYPE_NAMES.entries()) {
    // `__proto__` is a property name like any other here: define it, never set the prototype.
    Object.defineProperty(props, name, {
      value: HOSTILE_VALUES[i % HOSTILE_VALUES.length],
      enumerable: true,
    });
  }
  await hostile.createEntity({ partitionKey: HOSTILE_PARTITION, rowKey: HOSTILE_ROW, ...props });
}
