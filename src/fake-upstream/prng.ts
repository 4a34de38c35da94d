/** Seeded randomness for the synthetic catalog: everything derives from one seed, never Math.random. */

export type Rng = () => number;

/** mulberry32: tiny, fast, and good enough for test data (not for anything secret). */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Integer in [min, max] inclusive. */
export function randInt(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)] as T;
}

/** Standard normal via Box-Muller; used for log-normal money amounts and text lengths. */
export function gaussian(rng: Rng): number {
  const u = 1 - rng();
  const v = rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/**
 * Zipf(s) sampler over ranks 0..n-1 via a lookup table: O(1) per draw, which matters because a
 * 500k-market catalog draws ~50M description words. Every rank gets at least one slot, so the
 * tail is slightly fatter than true Zipf; irrelevant for test data.
 */
export function zipfSampler(n: number, s = 1.0, tableBits = 18): (rng: Rng) => number {
  const size = 1 << tableBits;
  const weights = new Float64Array(n);
  let total = 0;
  for (let r = 0; r < n; r++) {
    weights[r] = 1 / (r + 1) ** s;
    total += weights[r] as number;
  }
  const table = n <= 0xffff ? new Uint16Array(size) : new Uint32Array(size);
  let pos = 0;
  for (let r = 0; r < n && pos < size; r++) {
    const slots = Math.max(1, Math.round(((weights[r] as number) / total) * size));
    const end = Math.min(size, pos + slots);
    table.fill(r, pos, end);
    pos = end;
  }
  // Rounding can leave a few slots: give them to the head, which dominates anyway.
  if (pos < size) table.fill(0, pos, size);
  return (rng) => table[Math.floor(rng() * size)] as number;
}

const HEX = '0123456789abcdef';
const hexOut = Buffer.allocUnsafe(2 + 128);

/**
 * `prefix` + `len` random hex characters (len <= 128), written into a buffer and decoded once so
 * the string is flat (see time-format.ts on cons strings).
 */
export function randHex(rng: Rng, len: number, prefix = ''): string {
  let p = hexOut.write(prefix, 0, 'latin1');
  for (let i = 0; i < len; i += 8) {
    let n = (rng() * 4294967296) >>> 0;
    for (let k = 0; k < 8 && i + k < len; k++) {
      hexOut[p++] = HEX.charCodeAt(n & 15);
      n >>>= 4;
    }
  }
  return hexOut.toString('latin1', 0, p);
}

const digitOut = Buffer.allocUnsafe(256);

/** Decimal digit string of exactly `len` digits (len <= 250), no leading zero (like CLOB token ids). */
export function randDigits(rng: Rng, len: number): string {
  digitOut[0] = 49 + Math.floor(rng() * 9);
  let p = 1;
  while (p < len) {
    let n = Math.floor(rng() * 1e9);
    for (let k = 0; k < 9 && p < len; k++) {
      digitOut[p++] = 48 + (n % 10);
      n = Math.floor(n / 10);
    }
  }
  return digitOut.toString('latin1', 0, len);
}
