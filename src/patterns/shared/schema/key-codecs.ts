import { chronologicalTicks, float64, int64, type KeyCodec, signedInt } from "../../../keys/index.js";
import { type EdmType, TableKitError } from "../../../model/index.js";

/** A codec for text written as is: the key of a String or Guid field with no codec of its own. */
export const textCodec: KeyCodec<string> = {
  name: "text",
  encode: (value) => {
    if (typeof value !== "string") throw new TableKitError("InvalidInput", "text: expected a string");
    return value;
  },
  decode: (key) => key,
  describe: () => ({ name: "text", parameters: {}, example: { input: "Sales", output: "Sales" } }),
};

const booleanCodec: KeyCodec<boolean> = {
  name: "boolean",
  encode: (value) => (value ? "1" : "0"),
  decode: (key) => {
    if (key !== "0" && key !== "1")
      throw new TableKitError("InvalidInput", `boolean: expected 0 or 1, got ${key}`);
    return key === "1";
  },
  describe: () => ({ name: "boolean", parameters: {}, example: { input: true, output: "1" } }),
};

/** Lowercase hex: byte order is string order, and every character is key-safe. */
const hexCodec: KeyCodec<Uint8Array> = {
  name: "hex",
  encode: (value) => Buffer.from(value).toString("hex"),
  decode: (key) => {
    if (!/^(?:[0-9a-f]{2})*$/.test(key))
      throw new TableKitError("InvalidInput", `hex: ${key} is not lowercase hex`);
    return new Uint8Array(Buffer.from(key, "hex"));
  },
  describe: () => ({
    name: "hex",
    parameters: {},
    example: { input: new Uint8Array([1, 255]), output: "01ff" },
  }),
};

/**
 * The key codec a field gets when its key part names no codec: text as is, integers as signed
 * fixed-width digits, doubles as ordered hex, DateTime as 19-digit ticks (oldest first).
 */
export function defaultKeyCodec(edm: EdmType): KeyCodec<never, unknown> {
  switch (edm) {
    case "String":
    case "Guid":
      return textCodec;
    case "Int32":
      return signedInt();
    case "Int64":
      return int64();
    case "Double":
      return float64();
    case "DateTime":
      return chronologicalTicks();
    case "Boolean":
      return booleanCodec;
    case "Binary":
      return hexCodec;
  }
}
