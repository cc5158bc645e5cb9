/**
 * Headless Chromium from Debian's `chromium` package (installed by .ci/run), driven by
 * playwright-core: no browser download, a fresh profile per launch, no background traffic.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

/**
 * Whether the browser test can run. Outside CI a missing browser skips it with a message saying
 * how to install one; in CI (CI=true, which .ci/run sets) a missing browser fails the run.
 */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  const install = "apt-get install chromium (Debian's package; .ci/run installs it when missing)";
  if (process.env["CI"] === "true") {
    throw new Error(`${CHROMIUM} is missing, and CI must not skip the browser test: ${install}`);
  }
  console.warn(`Skipping the explorer's browser test: ${CHROMIUM} is missing. To run it: ${install}.`);
  return false;
}

export interface Browser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), "tablekit-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
