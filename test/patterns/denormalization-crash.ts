/**
 * Seed 001's race in one partition, with the writer dying between its commit and its follow-up:
 * an employee's create (its copy's companion sending its follow-up through a transaction queue)
 * reads its department as absent; right after that read the department is created by a writer
 * that read the employee as absent (so without a copy); the create commits; the process dies as
 * its follow-up makes its first read. Where the store can be shared between processes a child
 * process is SIGKILLed there; otherwise the follow-up fails in this process, as a crash leaves it:
 * nothing after it runs, and the transaction sent ahead is not cancelled.
 */
import { spawn } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Table } from "../../src/index.js";
import type { TransactionQueue } from "../../src/patterns/index.js";
import { queueOptions } from "./crashing-workers.js";
import { Department, ManagerCopy } from "./denormalization-models.js";
import { Employee } from "./models.js";
import type { PatternsTarget } from "./target.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

export type EmployeeInput = Parameters<ReturnType<typeof Employee.on>["create"]>[0];

/** `table`, as the race needs it: the department appears after the first read, `die` runs at the first read after the commit. */
export function racingTable(table: Table, employee: EmployeeInput, die: () => void): Table {
  let phase: "read" | "commit" | "follow-up" = "read";
  return new Proxy(table, {
    get(t, name, receiver) {
      if (name === "getEntity") {
        return async (...args: Parameters<Table["getEntity"]>) => {
          if (phase === "follow-up") die();
          try {
            return await t.getEntity(...args);
          } finally {
            if (phase === "read") {
              phase = "commit";
              await Department.on(t).create({
                department: employee.department,
                departmentName: employee.department,
                managerId: employee.id,
              });
            }
          }
        };
      }
      if (name === "submitTransaction") {
        return async (...args: Parameters<Table["submitTransaction"]>) => {
          const response = await t.submitTransaction(...args);
          if (phase === "commit") phase = "follow-up";
          return response;
        };
      }
      const value = Reflect.get(t, name, receiver);
      return typeof value === "function" ? value.bind(t) : value;
    },
  });
}

/** Creates `employee` in `table` through the durable companions of ManagerCopy, dying between commit and follow-up. */
export async function createAndDie(
  target: PatternsTarget,
  table: Table,
  transactions: TransactionQueue,
  employee: EmployeeInput,
  holdSeconds: number,
): Promise<void> {
  if (target.sharedUrl) {
    const options = JSON.stringify({
      queue: queueOptions(transactions),
      table: table.tableName,
      employee,
      holdSeconds,
    });
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        join(root, "test", "patterns", "denormalization-crash-worker.ts"),
        target.sharedUrl,
        options,
      ],
      { cwd: root, stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((done) =>
      child.on("close", (c, s) => done([c, s])),
    );
    if (signal !== "SIGKILL")
      throw new Error(`the writer did not die after its commit (${code ?? signal}): ${stderr}`);
    return;
  }
  const racing = racingTable(table, employee, () => {
    throw new Error("died between the commit and the follow-up");
  });
  const { source } = ManagerCopy.companionsVia(transactions, { holdSeconds });
  await Employee.on(racing, { with: [source] })
    .create(employee)
    .then(
      () => {
        throw new Error("the writer did not die after its commit");
      },
      (err: unknown) => {
        if (!String(err).includes("died between the commit and the follow-up")) throw err;
      },
    );
}
