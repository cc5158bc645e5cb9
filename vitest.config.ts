import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Most files wait on servers and child processes (Azurite, DynamoDB Local, the CLI), not the
    // CPU: two files at once on a 2-core machine took the suite from 1109 s to 622 s, where
    // vitest's default (cores - 1) runs one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Before any service starts: which system components (java, python3-azure, chromium) are missing.
    globalSetup: ["./test/support/global-setup.ts"],
    reporters: ["default", "./test/support/summary-reporter.ts"],
  },
});
