/**
 * The shape every key codec shares: a symmetric `encode`/`decode` pair that can describe itself,
 * so the CLI and the docs can show the keys a model produces.
 */

/** What a codec says about itself: its name, the parameters it was built with, and one example. */
export interface CodecDescription {
  readonly name: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly example: { readonly input: unknown; readonly output: string };
}

/**
 * An order-preserving, reversible mapping between values and key strings. `Out` differs from `In`
 * only where encode accepts several forms (a JS `Date` or a `DateTime`) and decode returns one.
 */
export interface KeyCodec<In, Out = In> {
  readonly name: string;
  /** The key for `value`; throws TableKitError (InvalidInput, OutOfRangeInput) on values it cannot encode. */
  encode(value: In): string;
  /** The value a key was made from; throws TableKitError InvalidInput on strings encode never produces. */
  decode(key: string): Out;
  describe(): CodecDescription;
}

/**
 * A half-open range of keys: `lower <= key < upper`. No `upper` means unbounded above (a range
 * that reaches the end of the key space, such as the range of the empty prefix).
 */
export interface KeyInterval {
  readonly lower: string;
  readonly upper?: string;
}

/**
 * How a backend orders key strings: by UTF-16 code units (Azure, Cosmos DB, the embedded engine)
 * or by UTF-8 bytes, which is code point order (DynamoDB). Matches `Capabilities.keyOrder`.
 */
export type KeyOrder = "utf16" | "utf8";
