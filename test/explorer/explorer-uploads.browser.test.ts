/// <reference lib="dom" />
/**
 * The explorer's two uploads in a real browser (headless Chromium): a file imported into a table
 * as `tablekit import` imports it (typed NDJSON and CSV, a bad line shown with what was written
 * before it, a check that writes nothing), and a file uploaded into a blob container at a path
 * (create-only unless asked, blob names checked by the blob port).
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningExplorer, startExplorer } from "../../src/cli/explorer/start-explorer.js";
import { type DateTime, openStore, type Store } from "../../src/index.js";
import { type Browser, chromiumAvailable, launchChromium } from "../support/chromium.js";

let store: Store;
let explorer: RunningExplorer;
let browser: Browser;
let page: Page;
const origin = () => new URL(explorer.url).origin;

/** Chooses a file of `name` holding `text` in the form's file input. */
const choose = (input: string, name: string, text: string) =>
  page.setInputFiles(input, { name, mimeType: "application/octet-stream", buffer: Buffer.from(text) });

async function rowKeys(table: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const e of store.table(table).listEntities()) keys.push(e.rowKey ?? "");
  return keys;
}

// Skipped only on a developer machine without /usr/bin/chromium (chromiumAvailable says how to install
// it); in CI a missing browser throws instead, so CI always runs these tests.
describe.skipIf(!chromiumAvailable())("explorer uploads in Chromium", { timeout: 60_000 }, () => {
  beforeAll(async () => {
    store = await openStore("memory:");
    await store.createTable("Imports");
    explorer = await startExplorer({ store, writable: true });
    browser = await launchChromium();
    page = await browser.context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(explorer.url);
  });

  afterAll(async () => {
    await browser?.close();
    await explorer?.stop();
    await store?.close();
  });

  it("imports typed NDJSON into the table, every value of its type, and says how many", async () => {
    await page.goto(`${origin()}/t/Imports`);
    await choose(
      "[data-test=import-file]",
      "orders.ndjson",
      [
        '{"PartitionKey":"c1","RowKey":"1","Price":5,"Id@odata.type":"Edm.Int64","Id":"9007199254740993"}',
        '{"PartitionKey":"c1","RowKey":"2","When@odata.type":"Edm.DateTime","When":"2026-11-22T02:49:12.9327936Z"}',
        '{"PartitionKey":"c2","RowKey":"3","Ratio@odata.type":"Edm.Double","Ratio":2}',
      ].join("\n"),
    );
    await page.click("[data-test=import] button");
    expect(await page.textContent("[data-test=import-notice]")).toBe(
      "Imported 3 entities from orders.ndjson.",
    );
    expect(await page.locator("[data-test=entities] tbody tr").count()).toBe(3);
    const t = store.table("Imports");
    expect(await t.getEntity("c1", "1")).toMatchObject({ Price: 5, Id: 9007199254740993n });
    expect(((await t.getEntity("c1", "2")).When as DateTime).toISOString()).toBe(
      "2026-11-22T02:49:12.9327936Z",
    );
    expect((await t.getEntity("c2", "3")).Ratio).toEqual({ value: 2, type: "Double" });
  });

  it("imports typed CSV (format from the extension), merging into entities that exist when asked", async () => {
    await page.goto(`${origin()}/t/Imports`);
    await choose(
      "[data-test=import-file]",
      "more.csv",
      'PartitionKey,RowKey,Note@Edm.String,Total@Edm.Int64\nc1,1,"merged, kept",12\nc3,4,new,7\n',
    );
    await page.selectOption("[data-test=import-mode]", "merge");
    await page.click("[data-test=import] button");
    expect(await page.textContent("[data-test=import-notice]")).toBe("Imported 2 entities from more.csv.");
    // Merged: Price and Id stay beside the new Note and Total.
    expect(await store.table("Imports").getEntity("c1", "1")).toMatchObject({
      Price: 5,
      Id: 9007199254740993n,
      Note: "merged, kept",
      Total: 12n,
    });
  });

  it("stops at a bad line with its code and line, having written every line before it", async () => {
    await store.createTable("Stops");
    await page.goto(`${origin()}/t/Stops`);
    await choose(
      "[data-test=import-file]",
      "bad.ndjson",
      '{"PartitionKey":"p","RowKey":"1"}\n{"PartitionKey":"p","RowKey":"2"}\n{"PartitionKey":"p","RowKey":"a/b"}\n{"PartitionKey":"p","RowKey":"4"}\n',
    );
    await page.click("[data-test=import] button");
    const error = await page.textContent("[data-test=import-error]");
    expect(error).toMatch(/^OutOfRangeInput/);
    expect(error).toContain("bad.ndjson: line 3");
    expect(error).toContain("2 entities before it were written.");
    expect(await rowKeys("Stops")).toEqual(["1", "2"]);
    // Whatever the browser sends, the table's rules decide: a file that is not NDJSON at all.
    await choose("[data-test=import-file]", "notes.txt", "not json\n");
    await page.click("[data-test=import] button");
    expect(await page.textContent("[data-test=import-error]")).toMatch(
      /^InvalidInput.*line 1: not valid JSON/s,
    );
  });

  it("checks a file without writing it, and refuses an empty choice", async () => {
    await store.createTable("Checked");
    await page.goto(`${origin()}/t/Checked`);
    await choose("[data-test=import-file]", "ok.ndjson", '{"PartitionKey":"p","RowKey":"1"}\n');
    await page.check("[data-test=import-check]");
    await page.click("[data-test=import] button");
    expect(await page.textContent("[data-test=import-notice]")).toBe(
      "Checked 1 entity in ok.ndjson: the file is valid; nothing was written.",
    );
    expect(await rowKeys("Checked")).toEqual([]);
    await page.evaluate(() => document.querySelector("[data-test=import-file]")!.removeAttribute("required"));
    await page.click("[data-test=import] button");
    expect(await page.textContent("[data-test=import-error]")).toContain("Choose a file to import.");
  });

  it("uploads a file into a container at the listed path, and downloads it back", async () => {
    await store.container("uploads").createIfNotExists();
    await page.goto(`${origin()}/b/uploads?prefix=${encodeURIComponent("2026/11/")}`);
    expect(await page.inputValue("[data-test=upload-name]")).toBe("2026/11/");
    await choose("[data-test=upload-file]", "a.log", "first line\n");
    await page.click("[data-test=upload] button");
    expect(await page.textContent("[data-test=blob-notice]")).toBe("Uploaded 2026/11/a.log.");
    expect(await page.locator("[data-test=blob]").allTextContents()).toEqual(["2026/11/a.log"]);
    const link = await page.locator("[data-test=blob]").evaluate((a) => (a as HTMLAnchorElement).href);
    expect(await (await page.context().request.get(link)).text()).toBe("first line\n");

    // A name of its own, in another folder.
    await choose("[data-test=upload-file]", "ignored.bin", "\u0000\u0001binary");
    await page.fill("[data-test=upload-name]", "archive/2025.bin");
    await page.click("[data-test=upload] button");
    const body = await store.container("uploads").getBlobClient("archive/2025.bin").downloadToBuffer();
    expect(body.toString()).toBe("\u0000\u0001binary");
  });

  it("keeps a blob that exists unless replace is ticked, and lets the blob port refuse bad names", async () => {
    await page.goto(`${origin()}/b/uploads?prefix=${encodeURIComponent("2026/11/")}`);
    await choose("[data-test=upload-file]", "a.log", "second version\n");
    await page.click("[data-test=upload] button");
    expect(await page.textContent("[data-test=blob-error]")).toMatch(
      /^BlobAlreadyExists.*Nothing was written/s,
    );
    const blob = store.container("uploads").getBlobClient("2026/11/a.log");
    expect((await blob.downloadToBuffer()).toString()).toBe("first line\n");
    await choose("[data-test=upload-file]", "a.log", "second version\n");
    await page.check("[data-test=upload-overwrite]");
    await page.click("[data-test=upload] button");
    expect(await page.textContent("[data-test=blob-notice]")).toBe("Uploaded 2026/11/a.log.");
    expect((await blob.downloadToBuffer()).toString()).toBe("second version\n");

    await choose("[data-test=upload-file]", "x.txt", "x");
    await page.fill("[data-test=upload-name]", "ends-with-a-dot.");
    await page.click("[data-test=upload] button");
    expect(await page.textContent("[data-test=blob-error]")).toMatch(/^InvalidResourceName/);
    await page.goto(`${origin()}/b/uploads`);
    expect(await page.locator("[data-test=blob]").allTextContents()).not.toContain("ends-with-a-dot.");
  });
});
