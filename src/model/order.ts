/**
 * The string order of keys. The embedded engine orders PartitionKey and RowKey by UTF-16 code
 * units — .NET's ordinal comparison, JavaScript's `<`, and what Azurite does — so results come back
 * in the order the Azure service and its SDKs compare strings. DynamoDB orders by UTF-8 bytes; the
 * two disagree only between U+E000..U+FFFF and astral characters (a backend declares its
 * `keyOrder` capability). Printable-ASCII keys, which every key codec emits, order the same everywhere.
 */
export function compareUtf16(a: string, b: string): -1 | 0 | 1 {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Compares by Unicode code points, which equals UTF-8 byte order (DynamoDB's key order). */
export function compareUtf8(a: string, b: string): -1 | 0 | 1 {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (D800-DFFF) encode code points above FFFF: they sort after E000-FFFF in UTF-8.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys && (x >= 0xe000 || y >= 0xe000)) return xs ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}
