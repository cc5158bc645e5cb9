/**
 * The CRC-64 of Azure Storage's `x-ms-content-crc64` headers: CRC-64/NVME (polynomial
 * 0xAD93D23594C93659, reflected 0x9A6C9329AC4BC9B5; init and final XOR all ones), sent as its 8
 * bytes least significant first, in Base64. Check value: "123456789" → 0xAE8B14860A799888.
 *
 * Table-driven, eight bytes a step ("slicing by 8"), on two 32-bit halves: JavaScript's bitwise
 * operators work on 32 bits, and BigInt would allocate per step.
 */

const POLY_LO = 0xac4bc9b5;
const POLY_HI = 0x9a6c9329;

/** TABLES[k*256 + i], low and high halves: the CRC of byte i followed by k zero bytes. */
const LO = new Uint32Array(8 * 256);
const HI = new Uint32Array(8 * 256);

for (let i = 0; i < 256; i++) {
  let lo = i;
  let hi = 0;
  for (let bit = 0; bit < 8; bit++) {
    const carry = lo & 1;
    lo = ((lo >>> 1) | ((hi & 1) << 31)) >>> 0;
    hi >>>= 1;
    if (carry) {
      lo = (lo ^ POLY_LO) >>> 0;
      hi = (hi ^ POLY_HI) >>> 0;
    }
  }
  LO[i] = lo;
  HI[i] = hi;
}
for (let k = 1; k < 8; k++) {
  for (let i = 0; i < 256; i++) {
    const lo = LO[(k - 1) * 256 + i]!;
    const hi = HI[(k - 1) * 256 + i]!;
    const index = lo & 0xff;
    LO[k * 256 + i] = (((lo >>> 8) | ((hi & 0xff) << 24)) ^ LO[index]!) >>> 0;
    HI[k * 256 + i] = ((hi >>> 8) ^ HI[index]!) >>> 0;
  }
}

/** A running CRC-64 over chunks, like a crypto Hash: `update` as often as needed, then `digest`. */
export class Crc64 {
  private lo = 0xffffffff;
  private hi = 0xffffffff;

  update(bytes: Uint8Array): this {
    let lo = this.lo;
    let hi = this.hi;
    let i = 0;
    const n = bytes.length;
    const whole = n - (n % 8);
    while (i < whole) {
      lo ^= bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
      hi ^= bytes[i + 4]! | (bytes[i + 5]! << 8) | (bytes[i + 6]! << 16) | (bytes[i + 7]! << 24);
      const l =
        LO[7 * 256 + (lo & 0xff)]! ^
        LO[6 * 256 + ((lo >>> 8) & 0xff)]! ^
        LO[5 * 256 + ((lo >>> 16) & 0xff)]! ^
        LO[4 * 256 + (lo >>> 24)]! ^
        LO[3 * 256 + (hi & 0xff)]! ^
        LO[2 * 256 + ((hi >>> 8) & 0xff)]! ^
        LO[256 + ((hi >>> 16) & 0xff)]! ^
        LO[hi >>> 24]!;
      const h =
        HI[7 * 256 + (lo & 0xff)]! ^
        HI[6 * 256 + ((lo >>> 8) & 0xff)]! ^
        HI[5 * 256 + ((lo >>> 16) & 0xff)]! ^
        HI[4 * 256 + (lo >>> 24)]! ^
        HI[3 * 256 + (hi & 0xff)]! ^
        HI[2 * 256 + ((hi >>> 8) & 0xff)]! ^
        HI[256 + ((hi >>> 16) & 0xff)]! ^
        HI[hi >>> 24]!;
      lo = l;
      hi = h;
      i += 8;
    }
    for (; i < n; i++) {
      const index = (lo ^ bytes[i]!) & 0xff;
      lo = ((lo >>> 8) | ((hi & 0xff) << 24)) ^ LO[index]!;
      hi = (hi >>> 8) ^ HI[index]!;
    }
    this.lo = lo >>> 0;
    this.hi = hi >>> 0;
    return this;
  }

  /** The 8 bytes as the headers carry them (least significant first). */
  digest(): Buffer {
    const out = Buffer.alloc(8);
    out.writeUInt32LE((this.lo ^ 0xffffffff) >>> 0, 0);
    out.writeUInt32LE((this.hi ^ 0xffffffff) >>> 0, 4);
    return out;
  }
}

/** The CRC-64 of `bytes`, as `x-ms-content-crc64` carries it (8 bytes, least significant first). */
export function crc64(bytes: Uint8Array): Buffer {
  return new Crc64().update(bytes).digest();
}
