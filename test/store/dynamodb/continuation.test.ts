import { describe, expect, it } from "vitest";
import {
  decodeQueryContinuation,
  encodeQueryContinuation,
} from "../../../src/store/dynamodb/continuation.js";

describe("dynamodb query continuations", () => {
  it("round-trip a key, a finished partition, or a range start", () => {
    const cursors = [
      { range: 0, after: { partitionKey: "", rowKey: "r" } },
      { range: 1, afterPartition: "" },
      { range: 1, afterPartition: "p\u00e9" },
      { range: 2 },
    ];
    for (const cursor of cursors) {
      expect(decodeQueryContinuation(encodeQueryContinuation(cursor), 3)).toEqual(cursor);
    }
  });

  it("reject a finished partition that is not a string or comes with a key", () => {
    for (const text of [
      '{"r":0,"p":1}',
      '{"r":0,"p":null}',
      '{"r":0,"p":"a","k":["a","b"]}',
      '{"r":3,"p":"a"}',
    ]) {
      expect(() => decodeQueryContinuation(text, 3), text).toThrow(
        expect.objectContaining({ code: "InvalidContinuationToken" }),
      );
    }
  });
});
