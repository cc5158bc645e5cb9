/**
 * What `npm test` says before starting services when a system component is missing: each missing
 * one, what needs it, and one command that installs them all.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startDynamoDbLocal } from "./support/dynamodb-local.js";
import { aptGet, javaProblem, missingNotice, prerequisites } from "./support/prerequisites.js";

describe("test prerequisites", () => {
  it("names each missing component, what needs it, and the command that installs them", () => {
    const none = prerequisites({
      path: "/nonexistent",
      python: "/nonexistent/python3",
      chromium: "/nonexistent/chromium",
    });
    expect(none.map((p) => p.problem !== undefined)).toEqual([true, true, true]);
    const notice = missingNotice(none, "sudo apt-get")!;
    expect(notice).toContain("Java 17+ (no `java` on PATH): needed by the DynamoDB suites");
    expect(notice).toContain("Python's azure.data.tables");
    expect(notice).toContain("Chromium (/nonexistent/chromium is missing)");
    expect(notice.split("\n").at(-1)).toBe(
      "  sudo apt-get install -y --no-install-recommends openjdk-17-jre-headless python3-azure chromium",
    );
  });

  it("says apt-get without sudo to root, and where there is no sudo", () => {
    const withSudo = mkdtempSync(join(tmpdir(), "tablekit-sudo-"));
    try {
      writeFileSync(join(withSudo, "sudo"), "#!/bin/sh\n", { mode: 0o755 });
      expect(aptGet({ root: false, path: withSudo })).toBe("sudo apt-get");
      expect(aptGet({ root: true, path: withSudo })).toBe("apt-get");
      expect(aptGet({ root: false, path: "/nonexistent" })).toBe("apt-get");
    } finally {
      rmSync(withSudo, { recursive: true, force: true });
    }
    const notice = missingNotice(
      prerequisites({ path: "/nonexistent", chromium: "/nonexistent/chromium" }),
      "apt-get",
    );
    expect(notice!.split("\n").at(-1)).toMatch(/^ {2}apt-get install -y --no-install-recommends /);
    // As this process runs: root here gets no sudo.
    if (process.getuid?.() === 0)
      expect(missingNotice(prerequisites({ path: "/nonexistent" }))).not.toContain("sudo");
  });

  it("says nothing when nothing is missing", () => {
    const all = prerequisites({ path: "/nonexistent", chromium: "/nonexistent/chromium" }).map((p) => ({
      ...p,
      problem: undefined,
    }));
    expect(missingNotice(all)).toBeUndefined();
  });

  it("DynamoDB Local without Java fails with the install command, not `sh: java: not found`", async () => {
    expect(javaProblem("/nonexistent")).toBe("no `java` on PATH");
    const path = process.env.PATH;
    process.env.PATH = "/nonexistent";
    try {
      await expect(startDynamoDbLocal()).rejects.toThrow(
        /needs Java 17\+ \(no `java` on PATH\): (sudo )?apt-get install -y openjdk-17-jre-headless/,
      );
    } finally {
      process.env.PATH = path;
    }
  });

  // Skipped outside CI on purpose: only CI promises every component; elsewhere npm test names what is missing.
  it.skipIf(process.env["CI"] !== "true")("in CI every component is there", () => {
    expect(prerequisites().filter((p) => p.problem !== undefined)).toEqual([]);
  });
});
