import { describe, expect, it } from "vitest";
import {
  AZURE_LIMITS,
  DYNAMODB_LIMITS,
  validateKeyEverywhere,
  validateKeyFor,
} from "../../src/keys/index.js";
import { dynamodbCapabilities } from "../../src/store/backends/dynamodb/table-capabilities.js";
import { embeddedCapabilities } from "../../src/store/backends/embedded/table-capabilities.js";
import { errorCode } from "./arbitraries.js";

describe("validateKeyFor(AZURE_LIMITS)", () => {
  it("takes 512 UTF-16 code units (1 KiB) and rejects 513", () => {
    expect(validateKeyFor(AZURE_LIMITS, "RowKey", "a".repeat(512))).toHaveLength(512);
    expect(errorCode(() => validateKeyFor(AZURE_LIMITS, "RowKey", "a".repeat(513)))).toBe("KeyValueTooLarge");
    expect(errorCode(() => validateKeyFor(AZURE_LIMITS, "PartitionKey", "😀".repeat(256)))).toBe("no error");
    expect(errorCode(() => validateKeyFor(AZURE_LIMITS, "PartitionKey", `${"😀".repeat(256)}a`))).toBe(
      "KeyValueTooLarge",
    );
  });

  it("rejects / \\ # ? and the control characters, and allows the empty key", () => {
    for (const c of ["/", "\\", "#", "?", "\u0000", "\u001f", "\u007f", "\u009f"]) {
      expect(
        errorCode(() => validateKeyFor(AZURE_LIMITS, "RowKey", `a${c}b`)),
        JSON.stringify(c),
      ).toBe("OutOfRangeInput");
    }
    for (const c of [" ", "!", "'", "~", "\u00a0", "😀"]) {
      expect(errorCode(() => validateKeyFor(AZURE_LIMITS, "RowKey", `a${c}b`))).toBe("no error");
    }
    expect(validateKeyFor(AZURE_LIMITS, "RowKey", "")).toBe("");
    expect(errorCode(() => validateKeyFor(AZURE_LIMITS, "RowKey", "a\ud800"))).toBe("InvalidInput");
    expect(errorCode(() => validateKeyFor(AZURE_LIMITS, "RowKey", 5))).toBe("InvalidInput");
  });
});

describe("validateKeyFor(DYNAMODB_LIMITS)", () => {
  it("measures keys in UTF-8: 1,024 bytes at most, as the dynamodb: store does", () => {
    const euros = (n: number) => "€".repeat(Math.floor(n / 3)) + "a".repeat(n % 3); // € is 3 bytes
    expect(validateKeyFor(DYNAMODB_LIMITS, "RowKey", euros(1024))).toBe(euros(1024));
    expect(errorCode(() => validateKeyFor(DYNAMODB_LIMITS, "RowKey", euros(1025)))).toBe("KeyValueTooLarge");
    expect(validateKeyFor(DYNAMODB_LIMITS, "PartitionKey", euros(1024))).toBe(euros(1024));
    expect(errorCode(() => validateKeyFor(DYNAMODB_LIMITS, "PartitionKey", euros(1025)))).toBe(
      "KeyValueTooLarge",
    );
    expect(errorCode(() => validateKeyFor(DYNAMODB_LIMITS, "RowKey", "😀".repeat(256)))).toBe("no error");
    expect(errorCode(() => validateKeyFor(DYNAMODB_LIMITS, "RowKey", `${"😀".repeat(256)}a`))).toBe(
      "KeyValueTooLarge",
    );
  });

  it("allows the empty key and forbids what the store forbids", () => {
    expect(validateKeyFor(DYNAMODB_LIMITS, "RowKey", "")).toBe("");
    expect(errorCode(() => validateKeyFor(DYNAMODB_LIMITS, "RowKey", "a#b"))).toBe("OutOfRangeInput");
    expect(errorCode(() => validateKeyFor(DYNAMODB_LIMITS, "RowKey", "\udc00"))).toBe("InvalidInput");
    expect(errorCode(() => validateKeyFor(DYNAMODB_LIMITS, "RowKey", null))).toBe("InvalidInput");
  });

  it("the exported limits are the ones the stores check against", () => {
    expect(dynamodbCapabilities().limits).toEqual(DYNAMODB_LIMITS);
    expect(embeddedCapabilities({ memory: true }).limits).toEqual(AZURE_LIMITS);
  });

  it("rejects what is not a key kind or not limits", () => {
    expect(errorCode(() => validateKeyFor(AZURE_LIMITS, "Key" as "RowKey", "a"))).toBe("InvalidInput");
    expect(errorCode(() => validateKeyFor("azure" as never, "RowKey", "a"))).toBe("InvalidInput");
  });
});

describe("validateKeyEverywhere", () => {
  it("applies both rule sets", () => {
    expect(validateKeyEverywhere("RowKey", "us!wa!")).toBe("us!wa!");
    expect(validateKeyEverywhere("RowKey", "")).toBe("");
    expect(errorCode(() => validateKeyEverywhere("RowKey", "us#wa"))).toBe("OutOfRangeInput");
    expect(errorCode(() => validateKeyEverywhere("RowKey", "a".repeat(513)))).toBe("KeyValueTooLarge");
    expect(errorCode(() => validateKeyEverywhere("RowKey", "€".repeat(342)))).toBe("KeyValueTooLarge");
    expect(errorCode(() => validateKeyEverywhere("RowKey", "€".repeat(341)))).toBe("no error");
  });
});
