import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Before any service starts: which system components (java, python3-azure, chromium) are missing.
    globalSetup: ["./test/support/global-setup.ts"],
    reporters: ["default", "./test/support/summary-reporter.ts"],
  },
});
