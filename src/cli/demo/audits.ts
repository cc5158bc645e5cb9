/** Seed 004: audited equipment with version history and a v0_ latest copy. */
import { defineVersioned, field } from "../../patterns/index.js";
import type { Store } from "../../store/index.js";
import type { Channel } from "../output/terminal.js";
import { heading, readResult, storedKeys } from "./show.js";

export const EquipmentAudit = defineVersioned({
  table: "DemoAudits",
  fields: { equipment: field.string(), auditor: field.string(), result: field.string() },
  partitionKey: (k) => k.field("equipment"),
  item: (k) => k.literal("Audit"),
});

const AUDITS = [
  { auditor: "Ann", result: "pass" },
  { auditor: "Bob", result: "fail: loose cable" },
  { auditor: "Cid", result: "pass" },
];

export async function auditsDemo(store: Store, out: Channel): Promise<void> {
  heading(
    out,
    "Version history with a v0_ latest copy",
    "seed 004",
    "Each audit is stored as v<N>_Audit and the v0_Audit copy is replaced in the same transaction,\nconditional on the version read: the latest audit is one point read, the history a range query,\nand two auditors can never both write version N.",
  );
  await store.createTable("DemoAudits");
  const audits = EquipmentAudit.on(store);
  for (const a of AUDITS) await audits.write({ equipment: "Equipment_1", ...a });
  await storedKeys(out, audits.table, (_, rk) =>
    rk.startsWith("v0_") ? "latest copy" : `version ${Number(rk.slice(1, 7))}`,
  );
  const latest = await audits.latest({ equipment: "Equipment_1" });
  const history = await audits.history({ equipment: "Equipment_1" }).toArray();
  readResult(
    out,
    `latest audit (one read of v0_Audit): version ${latest?.version}, ${latest?.auditor}, ${latest?.result}; full history:`,
    ["Version", "Auditor", "Result"],
    history.map((v) => [String(v.version), v.auditor, v.result]),
  );
}
