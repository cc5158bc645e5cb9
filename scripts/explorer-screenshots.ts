/**
 * Makes the screenshots of docs/explorer.md (docs/images/explorer-*.png, the viewport only, so
 * they stay small): the browser test's fixture in memory, the explorer on a free port, headless
 * Chromium from Debian's package.
 * Run by hand when the pages change: `npm run screenshots`. Typechecked with the tests (tsconfig.json).
 */
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startExplorer } from "../src/cli/explorer/start-explorer.js";
import { openStore } from "../src/index.js";
import { launchChromium } from "../test/support/chromium.js";
import { buildExplorerFixture, EXPLORER_MODELS } from "../test/support/explorer-fixture.js";

const images = resolve(fileURLToPath(import.meta.url), "..", "..", "docs", "images");
const store = await openStore("memory:");
await buildExplorerFixture(store);
const explorer = await startExplorer({ store, writable: true, models: [...EXPLORER_MODELS] });
const browser = await launchChromium();
try {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1200, height: 640 });
  await page.goto(explorer.url);
  const origin = new URL(explorer.url).origin;
  const shots: [string, string, (() => Promise<void>)?][] = [
    ["explorer-tables.png", "/"],
    ["explorer-browse.png", "/t/Employees"],
    ["explorer-posts.png", "/t/Posts"],
    [
      "explorer-filter-error.png",
      "/t/Orders",
      async () => {
        await page.fill("[data-test=filter-input]", "Price gt 5 and (Shipped eq true");
        await page.press("[data-test=filter-input]", "Enter");
      },
    ],
    [
      "explorer-conflict.png",
      "/t/Orders/e?pk=customer-42&rk=10",
      async () => {
        await store
          .table("Orders")
          .updateEntity({ partitionKey: "customer-42", rowKey: "10", Price: 8 }, "Merge");
        await page.locator("[data-test=fields] input[name=value]").first().fill("9");
        await page.click("[data-test=save]");
      },
    ],
    ["explorer-advisor.png", "/t/Orders/advise"],
    [
      "explorer-builder.png",
      "/t/Many",
      async () => {
        await page.fill("[data-test=builder-property]", "n");
        await page.selectOption("[data-test=builder-op]", "ge");
        await page.selectOption("[data-test=builder-type]", "Int32");
        await page.fill("[data-test=builder-value]", "100");
        await page.click("[data-test=builder] button");
        await page.click("[data-test=count-link]");
      },
    ],
    [
      "explorer-wide.png",
      "/t/Hostile",
      async () => {
        await page.evaluate(() => {
          document.querySelector("[data-test=grid]")!.scrollLeft = 600;
        });
      },
    ],
    [
      "explorer-queue.png",
      "/q/jobs",
      async () => {
        const jobs = store.queue("jobs");
        await jobs.createIfNotExists();
        for (const text of ['{"order":"10","step":"ship"}', '{"order":"11","step":"bill"}'])
          await jobs.sendMessage(text);
        await page.reload();
      },
    ],
    [
      "explorer-import.png",
      "/t/Shipments",
      async () => {
        const lines = [
          '{"PartitionKey":"2026-11","RowKey":"0001","Carrier":"DHL","Weight":12.5}',
          '{"PartitionKey":"2026-11","RowKey":"0002","Carrier":"UPS","Weight":3}',
          '{"PartitionKey":"2026-11","RowKey":"0003","Carrier":"DHL","Parcels@odata.type":"Edm.Int64","Parcels":"4"}',
          '{"PartitionKey":"2026-11","RowKey":"0004/a","Carrier":"UPS"}',
        ];
        await page.setInputFiles("[data-test=import-file]", {
          name: "shipments.ndjson",
          mimeType: "application/x-ndjson",
          buffer: Buffer.from(`${lines.join("\n")}\n`),
        });
        await page.click("[data-test=import] button");
      },
    ],
    [
      "explorer-blobs.png",
      `/b/logs?prefix=${encodeURIComponent("2026/11/")}`,
      async () => {
        await page.setInputFiles("[data-test=upload-file]", {
          name: "22.log",
          mimeType: "text/plain",
          buffer: Buffer.from("02:49:12 order 10 shipped\n"),
        });
        await page.click("[data-test=upload] button");
      },
    ],
  ];
  await store.createTable("Shipments");
  const logs = store.container("logs");
  await logs.createIfNotExists();
  for (const name of ["2026/11/20.log", "2026/11/21.log", "2026/11/archive/old.log", "2026/12/01.log"])
    await logs.getBlockBlobClient(name).upload(`${name}\n`, name.length + 1);
  for (const [file, path, act] of shots) {
    await page.goto(`${origin}${path}`);
    await act?.();
    await page.waitForLoadState("load");
    await page.screenshot({ path: join(images, file) });
    console.log(`docs/images/${file}`);
  }
} finally {
  await browser.close();
  await explorer.stop();
  await store.close();
}
