import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ERROR_STATUS } from "../src/model/index.js";

describe("docs/errors.md", () => {
  it("lists every error code with its status", () => {
    const doc = readFileSync(new URL("../docs/errors.md", import.meta.url), "utf8");
    const rows = new Map([...doc.matchAll(/^\| `(\w+)` \| (\d+) \|/gm)].map((m) => [m[1]!, Number(m[2])]));
    expect(Object.fromEntries(rows)).toEqual(ERROR_STATUS);
  });
});
