import { fnv1a32 } from "../../keys/index.js";
import { TableKitError } from "../../model/index.js";

/**
 * Where one part of a parallel query resumes: `done`, or the part's own continuation token of the
 * page to read next (absent: its first page) and the last key already handed out from it, so
 * entities at or before that key in the re-read page are skipped.
 */
export type PartPosition =
  | { readonly done: true }
  | {
      readonly done: false;
      readonly token?: string;
      readonly after?: readonly [partitionKey: string, rowKey: string];
    };

const PREFIX = "tkq1.";

type Encoded = 0 | [token: string | null, partitionKey?: string, rowKey?: string];

/** A fingerprint of the parts a token was made for, so a token cannot resume another query. */
export function partsFingerprint(parts: readonly { name: string; table: string; filter?: string }[]): string {
  const text = JSON.stringify(parts.map((p) => [p.name, p.table.toLowerCase(), p.filter ?? ""]));
  return fnv1a32(text).toString(36);
}

/** The composite continuation token: one position per part, and the parts' fingerprint. */
export function encodeCompositeToken(fingerprint: string, positions: readonly PartPosition[]): string {
  const p: Encoded[] = positions.map((pos) => {
    if (pos.done) return 0;
    const head: Encoded = [pos.token ?? null];
    if (pos.after) head.push(pos.after[0], pos.after[1]);
    return head;
  });
  return PREFIX + Buffer.from(JSON.stringify({ f: fingerprint, p }), "utf8").toString("base64url");
}

function malformed(why: string): TableKitError {
  return new TableKitError("InvalidContinuationToken", `The continuation token is malformed: ${why}`);
}

/** Decodes a token made by `encodeCompositeToken` for the same parts; anything else is InvalidContinuationToken. */
export function decodeCompositeToken(token: unknown, fingerprint: string, partCount: number): PartPosition[] {
  if (typeof token !== "string" || !token.startsWith(PREFIX) || !/^[A-Za-z0-9_-]*$/.test(token.slice(5))) {
    throw malformed("not a parallel query's token");
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(token.slice(PREFIX.length), "base64url").toString("utf8"));
  } catch (err) {
    throw new TableKitError("InvalidContinuationToken", "The continuation token is malformed", {
      cause: err,
    });
  }
  const { f, p } = (body ?? {}) as { f?: unknown; p?: unknown };
  if (f !== fingerprint) throw malformed("it was made for another set of parts");
  if (!Array.isArray(p) || p.length !== partCount) throw malformed("wrong number of parts");
  return p.map((entry: unknown): PartPosition => {
    if (entry === 0) return { done: true };
    const isText = (v: unknown) => typeof v === "string";
    if (
      !Array.isArray(entry) ||
      (entry.length !== 1 && entry.length !== 3) ||
      !(entry[0] === null || isText(entry[0])) ||
      !entry.slice(1).every(isText)
    ) {
      throw malformed("bad part position");
    }
    const [t, pk, rk] = entry as [string | null, string?, string?];
    return {
      done: false,
      ...(t === null ? {} : { token: t }),
      ...(pk === undefined ? {} : { after: [pk, rk!] as const }),
    };
  });
}
