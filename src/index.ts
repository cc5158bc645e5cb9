/**
 * tablekit: the key-design patterns of partition-key/row-key tables as a library, over an
 * embedded SQLite engine, Azure Tables and DynamoDB alike.
 */

export * from "./filter/index.js";
/** The key codecs, also importable as "tablekit/keys". */
export * as keys from "./keys/index.js";
export * from "./model/index.js";
export * from "./patterns/index.js";
export * from "./store/index.js";
