/**
 * An application written for Azurite, as its users write them: @azure/data-tables,
 * @azure/storage-queue and @azure/storage-blob, all three from the one connection string in
 * AZURE_STORAGE_CONNECTION_STRING (`UseDevelopmentStorage=true` or an explicit one). It stores an
 * order in a table, queues a job for it, keeps its invoice as a blob, then works the job off, and
 * prints what it saw as one JSON line (no times, ids or ETags, so two servers' runs compare equal).
 * test/server/replace-azurite.test.ts runs it against Azurite and against `tablekit serve`.
 */
import { TableClient, TableServiceClient } from "@azure/data-tables";
import { BlobServiceClient } from "@azure/storage-blob";
import { QueueServiceClient } from "@azure/storage-queue";

const connectionString = process.env.AZURE_STORAGE_CONNECTION_STRING;
if (!connectionString) throw new Error("set AZURE_STORAGE_CONNECTION_STRING");
const run = process.env.APP_RUN ?? "one";

const tables = TableServiceClient.fromConnectionString(connectionString, { allowInsecureConnection: true });
const orders = TableClient.fromConnectionString(connectionString, `Orders${run}`, {
  allowInsecureConnection: true,
});
const queues = QueueServiceClient.fromConnectionString(connectionString);
const blobs = BlobServiceClient.fromConnectionString(connectionString);

const seen: Record<string, unknown> = {};

// Tables: an order, read back, queried, merged. Totals are Doubles on both: the service compares a
// Double literal with an Int32 property as false, Azurite ignores the types (docs/server.md).
await tables.createTable(`Orders${run}`);
await orders.createEntity({ partitionKey: "customer-1", rowKey: "order-1", total: 12.5, lines: 3 });
await orders.createEntity({ partitionKey: "customer-1", rowKey: "order-2", total: 40.5, lines: 1 });
const order = await orders.getEntity<{ total: number; lines: number }>("customer-1", "order-1");
seen.order = { total: order.total, lines: order.lines };
const big: string[] = [];
for await (const e of orders.listEntities({ queryOptions: { filter: "total gt 20.0" } })) big.push(e.rowKey!);
seen.bigOrders = big;
await orders.updateEntity({ partitionKey: "customer-1", rowKey: "order-1", status: "paid" }, "Merge");
seen.status = (await orders.getEntity<{ status: string }>("customer-1", "order-1")).status;

// Blobs: the invoice as a block blob, listed and read back; a log as an append blob.
const container = blobs.getContainerClient(`invoices-${run}`);
await container.create();
const invoice = "invoice for order-1: 12.50";
await container.getBlockBlobClient("customer-1/order-1.txt").upload(invoice, invoice.length, {
  blobHTTPHeaders: { blobContentType: "text/plain" },
  metadata: { order: "order-1" },
});
const listed: string[] = [];
for await (const b of container.listBlobsFlat({ prefix: "customer-1/" })) listed.push(b.name);
seen.invoices = listed;
const props = await container.getBlobClient("customer-1/order-1.txt").getProperties();
seen.invoiceProperties = {
  contentType: props.contentType,
  metadata: props.metadata,
  length: props.contentLength,
};
seen.invoice = (await container.getBlobClient("customer-1/order-1.txt").downloadToBuffer()).toString();
const log = container.getAppendBlobClient("log.txt");
await log.create();
await log.appendBlock("paid\n", 5);
await log.appendBlock("shipped\n", 8);
seen.log = (await log.downloadToBuffer()).toString();

// Queues: a job per order, received (hidden while worked), deleted; a retry after the visibility timeout.
const jobs = queues.getQueueClient(`jobs-${run}`);
await jobs.create();
await jobs.sendMessage("ship order-1");
await jobs.sendMessage("ship order-2");
seen.queued = (await jobs.getProperties()).approximateMessagesCount;
const first = await jobs.receiveMessages({ numberOfMessages: 1, visibilityTimeout: 30 });
const job = first.receivedMessageItems[0]!;
seen.job = { text: job.messageText, dequeueCount: job.dequeueCount };
seen.peekedWhileWorking = (await jobs.peekMessages({ numberOfMessages: 32 })).peekedMessageItems.map(
  (m) => m.messageText,
);
await jobs.deleteMessage(job.messageId, job.popReceipt);
const second = await jobs.receiveMessages({ numberOfMessages: 1, visibilityTimeout: 1 });
const retried = second.receivedMessageItems[0]!;
await new Promise((resolve) => setTimeout(resolve, 1500));
const again = (await jobs.receiveMessages()).receivedMessageItems[0]!;
seen.retry = {
  text: again.messageText,
  dequeueCount: again.dequeueCount,
  sameMessage: again.messageId === retried.messageId,
};
await jobs.deleteMessage(again.messageId, again.popReceipt);
seen.left = (await jobs.getProperties()).approximateMessagesCount;

// Clean up, as a test of the app would.
await jobs.delete();
await container.delete();
await tables.deleteTable(`Orders${run}`);
console.log(JSON.stringify(seen));
