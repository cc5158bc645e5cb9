import { describe, expect, it } from "vitest";
import {
  decodeQueryContinuation,
  encodeQueryContinuation,
} from "../../../src/store/backends/dynamodb/table-continuation.js";

describe("dynamodb query continuations", () => {
  it("round-trip a key, a partition to start at, or a range start", () => {
    const cursors = [
      { range: 0, after: { partitionKey: "", rowKey: "r" } },
      { range: 1, atPartition: "" },
      { range: 1, atPartition: "p\u00e9" },
      { range: 2 },
    ];
    for (const cursor of cursors) {
      expect(decodeQueryContinuation(encodeQueryContinuation(cursor), 3)).toEqual(cursor);
    }
  });

  it("reject a partition that is not a string or comes with a key, and fields of other formats", () => {
    for (const text of [
      '{"r":0,"a":1}',
      '{"r":0,"a":null}',
      '{"r":0,"a":"a","k":["a","b"]}',
      '{"r":3,"a":"a"}',
      // The earlier "after this partition" form: resuming it as a range start would repeat rows.
      '{"r":0,"p":"a"}',
    ]) {
      expect(() => decodeQueryContinuation(text, 3), text).toThrow(
        expect.objectContaining({ code: "InvalidContinuationToken" }),
      );
    }
  });
});
