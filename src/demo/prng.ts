/**
 * Counter-based integer randomness for the demo market maker: a draw is a pure function of its
 * key (seed, purpose, symbol, counter…), so any tick's ladder can be recomputed without replaying
 * a generator's state, and no float ever carries a price or a size.
 */

const TWO_POW_32 = 0x1_0000_0000;
/** Rejection sampling redraws with probability < range / 2^32; this bound is never reached in practice. */
const MAX_REDRAWS = 64;

/** murmur3's 32-bit finaliser: every input bit affects every output bit. */
function fmix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function mixWord(hash: number, word: number): number {
  return fmix32(Math.imul(hash ^ (word >>> 0), 0x9e3779b1) + 0x7f4a7c15);
}

/** A 32-bit hash of a key made of safe integers and strings (parts are length-delimited). */
export function hash32(parts: readonly (number | string)[]): number {
  let hash = 0x811c9dc5;
  for (const part of parts) {
    if (typeof part === 'number') {
      if (!Number.isSafeInteger(part)) throw new RangeError(`hash32 takes safe integers, got ${part}`);
      hash = mixWord(hash, 1);
      hash = mixWord(hash, part % TWO_POW_32);
      hash = mixWord(hash, Math.floor(part / TWO_POW_32));
    } else {
      hash = mixWord(hash, 2);
      hash = mixWord(hash, part.length);
      for (let i = 0; i < part.length; i++) hash = mixWord(hash, part.charCodeAt(i));
    }
  }
  return hash;
}

/** A uniform integer in [low, high] drawn from the key, without modulo bias. */
export function drawInt(key: readonly (number | string)[], low: number, high: number): number {
  if (!Number.isSafeInteger(low) || !Number.isSafeInteger(high) || high < low) throw new RangeError(`drawInt needs low <= high, got ${low}..${high}`);
  const range = high - low + 1;
  if (range > TWO_POW_32) throw new RangeError(`drawInt range too large: ${range}`);
  const acceptBelow = TWO_POW_32 - (TWO_POW_32 % range);
  let value = hash32(key);
  for (let redraw = 0; redraw < MAX_REDRAWS; redraw++) {
    if (value < acceptBelow) return low + (value % range);
    value = fmix32(value + redraw + 1);
  }
  throw new Error('drawInt: rejection sampling did not converge');
}
