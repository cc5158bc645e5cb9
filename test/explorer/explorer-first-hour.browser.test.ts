/// <reference lib="dom" />
/**
 * What a new user met in the explorer (issue 35), in a real browser: a whole number against Doubles
 * (the hint, and the builder writing the type it shows), tablekit's internal property hidden,
 * DateTime cells on one line, queue and blob pages with a way back and times with 7 digits.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningExplorer, startExplorer } from "../../src/cli/explorer/start-explorer.js";
import { DateTime, openStore, type Store } from "../../src/index.js";
import { type Browser, chromiumAvailable, launchChromium } from "../support/chromium.js";

let store: Store;
let explorer: RunningExplorer;
let browser: Browser;
let page: Page;
const origin = () => new URL(explorer.url).origin;
const rowKeys = () => page.locator("[data-test=entities] tbody tr td:nth-child(2) .key").allTextContents();

describe.skipIf(!chromiumAvailable())("explorer in Chromium: the first hour", { timeout: 60_000 }, () => {
  beforeAll(async () => {
    store = await openStore("memory:");
    const scores = store.table("Scores");
    await scores.createTable();
    for (const [rk, score] of [
      ["0", 9990.5],
      ["1", 9999],
      ["2", 9980],
    ] as const) {
      await scores.createEntity({
        partitionKey: "p",
        rowKey: rk,
        Score: { value: score, type: "Double" },
        When: DateTime.parse("2026-11-22T02:49:12.9327936Z"),
        tablekit_tx: "1|b|iX|journal|0:1:step",
      });
    }
    const jobs = await store.createQueue("jobs");
    await jobs.sendMessage("first");
    await store.createContainer("logs");
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

  it("says in one line why a whole number matched no Double, and shows the same empty result", async () => {
    await page.goto(`${origin()}/t/Scores?filter=${encodeURIComponent("Score gt 9990")}`);
    expect(await rowKeys()).toEqual([]);
    const hint = await page.textContent("[data-test=filter-hint]");
    expect(hint).toMatch(/Score holds Doubles.*9990 is an Int32 literal.*write 9990\.0/);
    expect(hint).not.toContain("\n");
    await page.goto(`${origin()}/t/Scores?filter=${encodeURIComponent("Score gt 100000")}`);
    expect(await page.locator("[data-test=filter-hint]").count()).toBe(0);
  });

  it("builds the condition as the type it shows: Double 9990 is 9990.0, and matches", async () => {
    await page.goto(`${origin()}/t/Scores`);
    await page.fill("[data-test=builder-property]", "Score");
    await page.selectOption("[data-test=builder-op]", "gt");
    await page.selectOption("[data-test=builder-type]", "Double");
    await page.fill("[data-test=builder-value]", "9990");
    await page.click("[data-test=builder] button");
    expect(await page.inputValue("[data-test=filter-input]")).toBe("Score gt 9990.0");
    expect(await rowKeys()).toEqual(["0", "1"]);
    expect(await page.locator("[data-test=filter-hint]").count()).toBe(0);
  });

  it("takes the type the grid shows when the property is one of its columns", async () => {
    await page.goto(`${origin()}/t/Scores`);
    expect(await page.inputValue("[data-test=builder-type]")).toBe("String");
    await page.fill("[data-test=builder-property]", "Score");
    expect(await page.inputValue("[data-test=builder-type]")).toBe("Double");
    await page.selectOption("[data-test=builder-op]", "ge");
    await page.fill("[data-test=builder-value]", "9990");
    await page.click("[data-test=builder] button");
    expect(await page.inputValue("[data-test=filter-input]")).toBe("Score ge 9990.0");
    expect(await rowKeys()).toEqual(["0", "1"]);
    // A property the grid does not show leaves the type as chosen.
    await page.selectOption("[data-test=builder-type]", "Int64");
    await page.fill("[data-test=builder-property]", "Missing");
    expect(await page.inputValue("[data-test=builder-type]")).toBe("Int64");
  });

  it("hides tablekit_tx unless asked, and keeps DateTime cells on one line", async () => {
    await page.setViewportSize({ width: 500, height: 800 });
    await page.goto(`${origin()}/t/Scores`);
    const headers = await page.locator("[data-test=entities] thead th").allTextContents();
    expect(headers).toEqual(["PartitionKey", "RowKey", "Score", "When"]);
    const lines = await page
      .locator("[data-test=entities] tbody .value.time")
      .first()
      .evaluate((el) =>
        Math.round(el.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(el).lineHeight)),
      );
    expect(lines).toBe(1);
    await page.click("[data-test=show-internal]");
    expect(await page.locator("[data-test=entities] thead th").allTextContents()).toContain("tablekit_tx");
    await page.click("[data-test=hide-internal]");
    expect(await page.locator("[data-test=entities] thead th").allTextContents()).not.toContain(
      "tablekit_tx",
    );
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it("queue and blob pages link back to their lists; queue times have 7 digits as tables do", async () => {
    await page.goto(`${origin()}/q/jobs`);
    expect(await page.textContent("[data-test=message-inserted]")).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/,
    );
    await page.click("[data-test=back-to-queues]");
    expect(await page.locator("[data-test=queues] a").allTextContents()).toEqual(["jobs"]);
    await page.goto(`${origin()}/b/logs`);
    await page.click("[data-test=back-to-containers]");
    expect(await page.locator("[data-test=containers] a").allTextContents()).toEqual(["logs"]);
  });
});
