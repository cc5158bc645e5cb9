import { afterAll, describe, expect, it } from "vitest";
import { cli, tempDir } from "./run-cli.js";

const { dir, cleanup } = tempDir();
afterAll(cleanup);
const keys = async (codec: string, ...args: string[]) => {
  const r = await cli(["keys", codec, "-o", "json", ...args], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { codec: string; keys: { value: string; key: string; rank: number }[] };
};

describe("tablekit keys", { timeout: 120_000 }, () => {
  it("shows the seed's inverted-tick keys, newest first, and decodes them back", async () => {
    const r = await keys("inverted-ticks", "2010-05-28", "2010-05-27T00:00:00Z", "2009-04-21");
    expect(r.codec).toBe("invertedTicks");
    expect(r.keys.map((k) => k.key)).toEqual([
      "2521272959999999999",
      "2521273823999999999",
      "2521620287999999999",
    ]);
    expect(r.keys.map((k) => k.rank)).toEqual([1, 2, 3]);
    const back = await keys("inverted-ticks", "--decode", "2521272959999999999");
    expect(back.keys[0]!.value).toBe("2010-05-28T00:00:00.0000000Z");
    const ticks = await keys("ticks", "2010-05-28T00:00:00Z");
    expect(ticks.keys[0]!.key).toBe("0634106016000000000");
  });

  it("pads integers so string order is numeric order", async () => {
    const r = await keys("padded", "10", "9", "223", "--max", "999999");
    expect(r.keys.map((k) => [k.key, k.rank])).toEqual([
      ["000010", 2],
      ["000009", 1],
      ["000223", 3],
    ]);
    const out = await cli(["keys", "padded", "1000000", "--max", "999999"], { cwd: dir });
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/^error OutOfRangeInput: /m);
  });

  it("builds compound, hierarchical and version keys, and the table view shows the round trip", async () => {
    expect((await keys("compound", "empid", "000123")).keys[0]!.key).toBe("empid!000123!");
    expect((await keys("hierarchical", "us", "wa", "king", "seattle")).keys[0]!.key).toBe(
      "us!wa!king!seattle!",
    );
    expect((await keys("version", "3", "Audit")).keys[0]!.key).toBe("v000003_Audit");
    expect((await keys("version", "--decode", "v0_Audit")).keys[0]!.value).toBe(
      '{"version":0,"item":"Audit"}',
    );
    const doubles = await keys("double", "--", "-1.5", "-0", "0", "NaN");
    expect(doubles.keys.map((k) => k.rank)).toEqual([1, 2, 3, 4]);
    const table = await cli(["keys", "signed", "--", "-42", "42"], { cwd: dir });
    expect(table.stdout).toMatch(/^signedInt /);
    expect(table.stdout).toMatch(/-42\s+-9999999999999958\s+-42\s+1/);
  });
});
