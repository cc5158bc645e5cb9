/**
 * The writer of denormalization-crash.ts in its own process:
 * `node --import tsx denormalization-crash-worker.ts <store url> <options json>`, options
 * `{ queue: TransactionQueueOptions (names only), table, employee, holdSeconds }`. It SIGKILLs
 * itself between its commit and its follow-up; it exits with status 3 if it gets past it.
 */
import { openStore } from "../../src/index.js";
import { TransactionQueue, type TransactionQueueOptions } from "../../src/patterns/index.js";
import { type EmployeeInput, racingTable } from "./denormalization-crash.js";
import { ManagerCopy } from "./denormalization-models.js";
import { Employee } from "./models.js";

const [url, optionsJson] = process.argv.slice(2);
const {
  queue,
  table: tableName,
  employee,
  holdSeconds,
} = JSON.parse(optionsJson!) as {
  queue: TransactionQueueOptions;
  table: string;
  employee: EmployeeInput;
  holdSeconds: number;
};
const store = await openStore(url!);
const table = store.table(tableName);
const copies = ManagerCopy.on(store, { source: table, target: table });
const transactions = new TransactionQueue(store, { ...queue, handlers: [copies.handler] });
const { source } = ManagerCopy.companionsVia(transactions, { holdSeconds });
const racing = racingTable(table, employee, () => process.kill(process.pid, "SIGKILL"));
await Employee.on(racing, { with: [source] }).create(employee);
process.exit(3);
