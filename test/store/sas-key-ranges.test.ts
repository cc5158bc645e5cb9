/**
 * The library's token verification, key ranges: every combination of the four bounds (absent,
 * empty, or given) is verified. A row bound without its partition bound (`srk` without `spk`,
 * `erk` without `epk`, an empty partition bound counting as none) is refused; every other token
 * keeps each bound it signed, and lets through exactly the keys an independent oracle of the
 * documented range (inclusive, compared as (PartitionKey, RowKey) pairs) allows.
 */
import { describe, expect, it } from "vitest";
import { DEVELOPMENT_ACCOUNT, parseSasToken, verifySasToken } from "../../src/index.js";
import { handMadeTableSas } from "../support/hand-made-sas.js";

const account = { name: DEVELOPMENT_ACCOUNT.name, key: DEVELOPMENT_ACCOUNT.key };
const keys = { name: account.name, keys: [account.key] };
const BOUNDS = ["spk", "srk", "epk", "erk"] as const;
const VALUES = { spk: "b", srk: "5", epk: "c", erk: "5" } as const;
type Bound = (typeof BOUNDS)[number];
type State = "absent" | "empty" | "given";

/** Every assignment of absent / empty / given to the four bounds: 81 tokens. */
function combinations(): Record<Bound, State>[] {
  const states: State[] = ["absent", "empty", "given"];
  const out: Record<Bound, State>[] = [];
  for (let n = 0; n < 3 ** BOUNDS.length; n++) {
    const combo = {} as Record<Bound, State>;
    BOUNDS.forEach((b, i) => {
      combo[b] = states[Math.floor(n / 3 ** i) % 3]!;
    });
    out.push(combo);
  }
  return out;
}

/** The documented range, written apart from the library: inclusive, compared as pairs. */
function oracle(range: Partial<Record<Bound, string>>, pk: string, rk: string): boolean {
  const pair = (a: [string, string], b: [string, string]) =>
    a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
  if (range.spk !== undefined) {
    // No srk: the whole start partition is in (the lowest row key is "").
    if (pair([pk, rk], [range.spk, range.srk ?? ""]) < 0) return false;
  }
  if (range.epk !== undefined) {
    if (range.erk === undefined ? pk > range.epk : pair([pk, rk], [range.epk, range.erk]) > 0) return false;
  }
  return true;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const PROBES = ["a", "b", "c", "d"].flatMap((pk) => ["", "1", "5", "9"].map((rk) => ({ pk, rk })));

describe("verifySasToken: key ranges", () => {
  it("refuses a row bound without its partition bound, in all 81 combinations of the four bounds", () => {
    let refused = 0;
    for (const combo of combinations()) {
      const fields: Record<string, string> = { tn: "Ranges", sp: "raud", se: "2099-01-01T00:00:00Z" };
      for (const b of BOUNDS) if (combo[b] !== "absent") fields[b] = combo[b] === "empty" ? "" : VALUES[b];
      const token = parseSasToken(handMadeTableSas(account, fields));
      const verify = () => verifySasToken(token, { account: keys, clientIp: "127.0.0.1", protocol: "http" });
      const has = (b: Bound) => combo[b] === "given";
      const label = JSON.stringify(combo);
      if ((has("srk") && !has("spk")) || (has("erk") && !has("epk"))) {
        expect(verify, label).toThrow(expect.objectContaining({ code: "AuthenticationFailed" }));
        refused++;
        continue;
      }
      const access = verify();
      const signed = Object.fromEntries(BOUNDS.filter(has).map((b) => [b, VALUES[b]]));
      expect(access.scope.kind === "table" && access.scope.keyRange, label).toEqual({
        ...(signed.spk ? { startPartitionKey: signed.spk } : {}),
        ...(signed.srk ? { startRowKey: signed.srk } : {}),
        ...(signed.epk ? { endPartitionKey: signed.epk } : {}),
        ...(signed.erk ? { endRowKey: signed.erk } : {}),
      });
      for (const { pk, rk } of PROBES) {
        const allowed = (() => {
          try {
            access.checkKeys({ partitionKey: pk, rowKey: rk }, compare);
            return true;
          } catch (err) {
            expect(err).toMatchObject({ code: "AuthorizationFailure" });
            return false;
          }
        })();
        expect([label, pk, rk, allowed]).toEqual([label, pk, rk, oracle(signed, pk, rk)]);
      }
    }
    // srk given with spk absent or empty (2 × 3 × 3 = 18), or erk given with epk absent or empty
    // (18), counted once when both (4): 32 refused.
    expect(refused).toBe(32);
  });
});
