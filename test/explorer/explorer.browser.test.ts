/// <reference lib="dom" />
/**
 * The web explorer in a real browser (headless Chromium, one launch): browsing in key order with
 * keys decoded, a $filter error under the input, an edit that loses to another writer, the advisor,
 * and hostile keys, names and values that must stay text.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningExplorer, startExplorer } from "../../src/cli/explorer/start-explorer.js";
import { openStore, type Store } from "../../src/index.js";
import { type Browser, chromiumAvailable, launchChromium } from "../support/chromium.js";
import {
  buildExplorerFixture,
  EXPLORER_MODELS,
  HOSTILE_PARTITION,
  HOSTILE_ROW,
  HOSTILE_VALUES,
} from "../support/explorer-fixture.js";
import { PROTOTYPE_NAMES } from "../support/prototype-names.js";

let store: Store;
let explorer: RunningExplorer;
let browser: Browser;
let page: Page;
const origin = () => new URL(explorer.url).origin;

const cells = (column: number) =>
  page.locator(`[data-test=entities] tbody tr td:nth-child(${column}) .key`).allTextContents();
const readings = () => page.locator(".decoded").allTextContents();

describe.skipIf(!chromiumAvailable())("explorer in Chromium", { timeout: 60_000 }, () => {
  beforeAll(async () => {
    store = await openStore("memory:");
    await buildExplorerFixture(store);
    explorer = await startExplorer({ store, writable: true, models: [...EXPLORER_MODELS] });
    browser = await launchChromium();
    page = await browser.context.newPage();
    page.setDefaultTimeout(10_000);
    page.on("dialog", (d) => void d.accept());
    await page.goto(explorer.url); // the token becomes a cookie, and the URL loses it
    expect(page.url()).toBe(`${origin()}/`);
  });

  afterAll(async () => {
    await browser?.close();
    await explorer?.stop();
    await store?.close();
  });

  it("lists tables, browses partitions and entities in key order with paging, and decodes keys", async () => {
    expect(await page.locator("[data-test=tables] a").allTextContents()).toEqual([
      "Audits",
      "Employees",
      "Hostile",
      "Locations",
      "Many",
      "Orders",
      "Posts",
    ]);
    await page.click("text=Posts");
    expect(await cells(2)).toEqual(["2521272959999999999", "2521273823999999999", "2521620287999999999"]);
    expect(await readings()).toContain("inverted ticks 2010-05-28T00:00:00.0000000Z");
    expect(await page.locator("[data-test=entities] .type").allTextContents()).toContain("DateTime");

    await page.goto(`${origin()}/t/Employees`);
    const decoded = await readings();
    expect(decoded).toContain("Employee id=7");
    expect(decoded).toContain("Employee index lastName lastName=Hopper, id=7");
    expect(decoded).toContain("Employee department=Sales");
    await page.goto(`${origin()}/t/Locations`);
    expect(await readings()).toContain("Locations country=us, region=ny, state=new york, city=new york");
    await page.goto(`${origin()}/t/Audits`);
    expect(await readings()).toEqual(
      expect.arrayContaining(["version version 1 of Audit", "version latest of Audit"]),
    );

    await page.goto(`${origin()}/t/Many`);
    expect(await page.locator("[data-test=partitions] a").allTextContents()).toEqual(["(all)", "p"]);
    expect((await cells(2)).slice(0, 2)).toEqual(["000", "001"]);
    expect(await cells(2)).toHaveLength(50);
    await page.click("[data-test=next-page]");
    expect((await cells(2))[0]).toBe("050");
    expect(await readings()).toContain("padded number 50 (width 3)");
  });

  it("shows a $filter error under the input, at its position, and runs a corrected one", async () => {
    await page.goto(`${origin()}/t/Orders`);
    await page.fill("[data-test=filter-input]", "Price gt");
    await page.press("[data-test=filter-input]", "Enter");
    const error = page.locator("[data-test=filter-error]");
    expect(await error.getAttribute("data-position")).toBe("8");
    expect(await error.textContent()).toContain(
      "InvalidFilterExpected a value after 'gt' at position 8:\nPrice gt\n        ^",
    );
    expect(await page.inputValue("[data-test=filter-input]")).toBe("Price gt");
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).selectionStart)).toBe(8);

    await page.fill("[data-test=filter-input]", "Price gt 5");
    await page.press("[data-test=filter-input]", "Enter");
    expect(await page.locator("[data-test=filter-error]").count()).toBe(0);
    // Typed comparisons: the Double 5.5 is not an Int32 greater than 5.
    expect(await cells(2)).toEqual(["10", "11"]);
    const exportUrl = await page
      .locator("[data-test=export-ndjson]")
      .evaluate((a) => (a as HTMLAnchorElement).href);
    const ndjson = await (await page.context().request.get(exportUrl)).text();
    expect(
      ndjson
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).RowKey),
    ).toEqual(["10", "11"]);
    const csvUrl = await page
      .locator("[data-test=export-csv]")
      .evaluate((a) => (a as HTMLAnchorElement).href);
    const [header, ...lines] = (await (await page.context().request.get(csvUrl)).text()).trim().split("\n");
    expect(header).toBe("PartitionKey,RowKey,Timestamp,Price@Edm.Int32,Total@Edm.Int64,Shipped@Edm.Boolean");
    expect(lines.map((l) => l.split(",").filter((_, i) => i !== 2))).toEqual([
      ["customer-42", "10", "7", "1000", "true"],
      ["customer-42", "11", "12", "1100", "false"],
    ]);
  });

  it("edits with types, shows an ETag conflict, and deletes", async () => {
    await page.goto(`${origin()}/t/Orders/e?pk=customer-42&rk=1`);
    const etag = await page.textContent("[data-test=etag]");
    // Another writer changes the entity after the page was loaded.
    await store.table("Orders").updateEntity({ partitionKey: "customer-42", rowKey: "1", Price: 6 }, "Merge");
    const priceRow = page.locator("[data-test=fields] tr", {
      has: page.locator('input[name=name][value="Price"]'),
    });
    await priceRow.locator("input[name=value]").fill("8");
    await page.click("[data-test=save]");
    expect(await page.textContent("[role=alert]")).toContain("UpdateConditionNotSatisfied");
    expect(await page.textContent("[role=alert]")).toContain("changed after you opened it");
    expect((await store.table("Orders").getEntity("customer-42", "1")).Price).toBe(6);

    await page.goto(`${origin()}/t/Orders/e?pk=customer-42&rk=1`);
    expect(await page.textContent("[data-test=etag]")).not.toBe(etag);
    const row = page.locator("[data-test=fields] tr", {
      has: page.locator('input[name=name][value="Price"]'),
    });
    await row.locator("select").selectOption("Int64");
    await row.locator("input[name=value]").fill("9");
    await page.click("[data-test=save]");
    expect(await page.textContent("[data-test=notice]")).toBe("Saved.");
    expect((await store.table("Orders").getEntity("customer-42", "1")).Price).toBe(9n);
    expect(
      await page.locator("[data-test=properties] tr", { hasText: "Price" }).locator(".type").textContent(),
    ).toBe("Int64");

    await page.goto(`${origin()}/t/Orders/new?pk=customer-42`);
    await page.fill("[data-test=new-rk]", "99");
    await page.locator("[data-test=fields] input[name=name]").first().fill("Note");
    await page.locator("[data-test=fields] input[name=value]").first().fill("from the browser");
    await page.click("[data-test=save]");
    expect((await store.table("Orders").getEntity("customer-42", "99")).Note).toBe("from the browser");
    await page.click("[data-test=delete]");
    expect(page.url()).toBe(`${origin()}/t/Orders?pk=customer-42`);
    await expect(store.table("Orders").getEntity("customer-42", "99")).rejects.toMatchObject({
      code: "ResourceNotFound",
    });
  });

  it("runs the advisor and shows its findings", async () => {
    await page.goto(`${origin()}/t/Orders`);
    await page.click("[data-test=advise-link]");
    const ids = await page
      .locator("[data-test=findings] article")
      .evaluateAll((a) => a.map((e) => e.getAttribute("data-id")));
    expect(ids).toEqual(["numeric-key-unpadded", "property-type-mixed"]);
    expect(await page.textContent("[data-id=numeric-key-unpadded]")).toContain(
      "docs/keys/padded-integers.md",
    );
    await page.goto(`${origin()}/t/Posts/advise`);
    expect(await page.textContent("[data-test=no-findings]")).toContain("No findings");
  });

  it("keeps hostile keys, property names and values as text", async () => {
    await page.goto(`${origin()}/t/Hostile`);
    await page.goto(
      `${origin()}/t/Hostile?filter=${encodeURIComponent("Name eq '<script>window.__xss=6</script>")}`,
    );
    expect(await page.textContent("[data-test=filter-error]")).toContain("<script>window.__xss=6</script>");
    await page.goto(`${origin()}/t/Hostile`);
    expect(await page.locator("[data-test=entities] thead th").allTextContents()).toEqual([
      "PartitionKey",
      "RowKey",
      ...PROTOTYPE_NAMES,
    ]);
    expect(await cells(1)).toEqual([HOSTILE_PARTITION]);
    expect(await cells(2)).toEqual([HOSTILE_ROW]);
    expect(await page.locator("[data-test=entities] .value").allTextContents()).toEqual(
      PROTOTYPE_NAMES.map((_, i) => HOSTILE_VALUES[i % HOSTILE_VALUES.length]),
    );
    await page.click("[data-test=entities] tbody a");
    expect(await page.locator("[data-test=properties] td.value").allTextContents()).toHaveLength(
      PROTOTYPE_NAMES.length,
    );
    await page.goto(`${origin()}/t/Hostile/advise`);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.locator("img, svg, script:not([src])").count()).toBe(0);
  });
});
