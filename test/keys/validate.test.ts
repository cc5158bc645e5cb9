import { describe, expect, it } from "vitest";
import { DYNAMODB_KEY_LIMITS, validateKeyEverywhere, validateKeyFor } from "../../src/keys/index.js";
import { errorCode } from "./arbitraries.js";

describe("validateKeyFor azure", () => {
  it("takes 512 UTF-16 code units (1 KiB) and rejects 513", () => {
    expect(validateKeyFor("azure", "RowKey", "a".repeat(512))).toHaveLength(512);
    expect(errorCode(() => validateKeyFor("azure", "RowKey", "a".repeat(513)))).toBe("KeyValueTooLarge");
    expect(errorCode(() => validateKeyFor("azure", "PartitionKey", "😀".repeat(256)))).toBe("no error");
    expect(errorCode(() => validateKeyFor("azure", "PartitionKey", `${"😀".repeat(256)}a`))).toBe(
      "KeyValueTooLarge",
    );
  });

  it("rejects / \\ # ? and the control characters, and allows the empty key", () => {
    for (const c of ["/", "\\", "#", "?", "\u0000", "\u001f", "\u007f", "\u009f"]) {
      expect(
        errorCode(() => validateKeyFor("azure", "RowKey", `a${c}b`)),
        JSON.stringify(c),
      ).toBe("OutOfRangeInput");
    }
    for (const c of [" ", "!", "\u00a0", "\u0020", "~", "é"]) {
      expect(errorCode(() => validateKeyFor("azure", "RowKey", `a${c}b`))).toBe("no error");
    }
    expect(validateKeyFor("azure", "RowKey", "")).toBe("");
    expect(errorCode(() => validateKeyFor("azure", "RowKey", "a\ud800"))).toBe("InvalidInput");
    expect(errorCode(() => validateKeyFor("azure", "RowKey", 5))).toBe("InvalidInput");
  });
});

describe("validateKeyFor dynamodb", () => {
  it("takes a 2048-byte partition key and a 1024-byte sort key, and rejects one byte more", () => {
    expect(DYNAMODB_KEY_LIMITS).toEqual({ partitionKeyMaxBytes: 2048, sortKeyMaxBytes: 1024 });
    const euros = (bytes: number) => "€".repeat(Math.floor(bytes / 3)) + "a".repeat(bytes % 3); // € is 3 bytes
    expect(validateKeyFor("dynamodb", "PartitionKey", euros(2048))).toBe(euros(2048));
    expect(errorCode(() => validateKeyFor("dynamodb", "PartitionKey", euros(2049)))).toBe("KeyValueTooLarge");
    expect(validateKeyFor("dynamodb", "RowKey", euros(1024))).toBe(euros(1024));
    expect(errorCode(() => validateKeyFor("dynamodb", "RowKey", euros(1025)))).toBe("KeyValueTooLarge");
    expect(errorCode(() => validateKeyFor("dynamodb", "RowKey", "a".repeat(1025)))).toBe("KeyValueTooLarge");
    expect(errorCode(() => validateKeyFor("dynamodb", "RowKey", "😀".repeat(256)))).toBe("no error");
    expect(errorCode(() => validateKeyFor("dynamodb", "RowKey", `${"😀".repeat(256)}a`))).toBe(
      "KeyValueTooLarge",
    );
  });

  it("rejects empty keys and unpaired surrogates, allows what Azure forbids", () => {
    expect(errorCode(() => validateKeyFor("dynamodb", "PartitionKey", ""))).toBe("InvalidInput");
    expect(errorCode(() => validateKeyFor("dynamodb", "RowKey", ""))).toBe("InvalidInput");
    expect(errorCode(() => validateKeyFor("dynamodb", "RowKey", "\udc00"))).toBe("InvalidInput");
    expect(errorCode(() => validateKeyFor("dynamodb", "RowKey", null))).toBe("InvalidInput");
    expect(validateKeyFor("dynamodb", "RowKey", "a#b/c")).toBe("a#b/c");
    expect(errorCode(() => validateKeyFor("cosmos" as "azure", "RowKey", "a"))).toBe("InvalidInput");
    expect(errorCode(() => validateKeyFor("azure", "Key" as "RowKey", "a"))).toBe("InvalidInput");
  });
});

describe("validateKeyEverywhere", () => {
  it("applies the stricter rule of each backend", () => {
    expect(validateKeyEverywhere("RowKey", "us!wa!")).toBe("us!wa!");
    expect(errorCode(() => validateKeyEverywhere("RowKey", ""))).toBe("InvalidInput");
    expect(errorCode(() => validateKeyEverywhere("RowKey", "us#wa"))).toBe("OutOfRangeInput");
    expect(errorCode(() => validateKeyEverywhere("RowKey", "a".repeat(513)))).toBe("KeyValueTooLarge");
    expect(errorCode(() => validateKeyEverywhere("RowKey", "€".repeat(342)))).toBe("KeyValueTooLarge");
    expect(errorCode(() => validateKeyEverywhere("RowKey", "€".repeat(341)))).toBe("no error");
  });
});
