/**
 * A bounded map from strings to numbers that keeps a 64-bit fingerprint of each key instead of the
 * key, in typed arrays: the scheduler's and the store writer's per-URL memories (URLs already
 * screened for traps, trap chain lengths, raw spellings already stored as aliases, normalized keys
 * already stored with their ids). Each held a Map of string keys: about 55 heap bytes an entry
 * besides the key's string, and one more object for every major GC to mark. At 100,000 synthetic
 * pages five of them held 105,000–400,000 entries each, 45 MB of the scheduler's 96 MB live heap
 * (heap snapshot, 2026-11-27). Here an entry costs {@link FINGERPRINT_SLOT_BYTES} bytes and 8 to
 * 16 of hash table, outside the GC's marking.
 *
 * A fingerprint stands for its key, as in the URL-seen test of IIR 20.2.2 (Mercator's 64-bit URL
 * fingerprints): two keys with the same 64 bits are one entry. For n keys held and m look-ups of
 * other keys the chance of any false hit is about m·n / 2^64, 5·10^-9 for a million look-ups
 * against 100,000 keys.
 *
 * Eviction is CLOCK (second chance), as BoundedCache's (seen-cache.ts): the entries sit in a dense
 * array in the order they came, a hit marks its entry referenced, and to make room the hand sweeps
 * that array, clearing marks and evicting the first entry not marked since it last passed; the new
 * entry takes its place. The hash table (linear probing, at most half full) maps a fingerprint to
 * its entry, and a deletion shifts the rest of its probe run back (backward-shift deletion, no
 * tombstones). Sweeping the table's own cells instead would empty the cells just behind the hand
 * and leave those ahead of it filling for a whole turn: near-full stretches whose probe runs made
 * a cache of 196,608 entries 300 times slower after its first turn.
 */
import { fmix32 } from './shingles';

/** Bytes an entry takes: fingerprint (two uint32), value (float64) and referenced mark (uint8); its table cells add 8 to 16. */
export const FINGERPRINT_SLOT_BYTES = 17;
/** Bytes an entry of a set takes (no value). */
export const FINGERPRINT_SET_SLOT_BYTES = 9;

/** Highest share of the hash table's cells in use (linear probing stays short below it). */
const MAX_LOAD = 0.5;

/** Entries of a new cache (a power of two), and cells of its first table at least. */
const FIRST_CAPACITY = 1024;

/** The last fingerprint computed, as two uint32 halves (no allocation per key). */
let fingerprintHigh = 0;
let fingerprintLow = 0;

/**
 * Computes the 64-bit fingerprint of `key` into fingerprintHigh/fingerprintLow: two 32-bit hashes
 * over its UTF-16 code units in one pass (FNV-1a, and a multiply-rotate hash with murmur3's
 * constants), each finalized with murmur3's fmix32 and the key's length.
 */
function fingerprint(key: string): void {
  let a = 0x811c9dc5 | 0;
  let b = 0x9747b28c | 0;
  for (let i = 0; i < key.length; i += 1) {
    const code = key.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0xcc9e2d51);
    b = (b << 15) | (b >>> 17);
    b = Math.imul(b, 0x1b873593);
  }
  fingerprintHigh = fmix32(a ^ key.length);
  fingerprintLow = fmix32(b ^ Math.imul(key.length, 0x9e3779b1));
}

/** The 64-bit fingerprint of a string as `[high, low]` uint32 halves (what {@link FingerprintCache} keeps of a key). */
export function stringFingerprint(key: string): [high: number, low: number] {
  fingerprint(key);
  return [fingerprintHigh, fingerprintLow];
}

/**
 * 53 bits of a string's fingerprint as one number (exact in a float64): a value a FingerprintCache
 * can hold for a string, to tell later whether another string is the same one (two different
 * strings share it with probability 2^-53).
 */
export function stringFingerprint53(text: string): number {
  fingerprint(text);
  return fingerprintHigh * 0x20_0000 + (fingerprintLow >>> 11);
}

/**
 * Sets fingerprintHigh/fingerprintLow to an exact encoding of a non-negative integer id below
 * 2^53: its upper bits, and its lower 32 bits through fmix32 (a bijection, which spreads
 * sequential ids over the table). Two ids never share it.
 */
function idFingerprint(id: number): void {
  fingerprintHigh = Math.floor(id / 0x1_0000_0000);
  fingerprintLow = fmix32(id >>> 0);
}

/** `into` (a larger array of the same kind) holding `from`'s values at its start. */
function grownCopy<T extends Uint32Array | Float64Array | Uint8Array>(from: T, into: T): T {
  into.set(from);
  return into;
}

/** Limits of a {@link FingerprintCache}. */
export interface FingerprintCacheLimits {
  /** Entries held at most (the hash table grows to the power of two that holds them half full). */
  maxEntries: number;
  /** False for a set: no value is kept, and a key held reads as 1. @default true */
  values?: boolean;
}

/** See the module comment. Values are numbers (a float64 each), or none for a set. */
export class FingerprintCache {
  /** Per entry (dense, in the order the clock hand sweeps): its fingerprint's halves, value and referenced mark. */
  private high = new Uint32Array(0);
  private low = new Uint32Array(0);
  /** Per entry its value; null for a set. */
  private values: Float64Array | null;
  private referenced = new Uint8Array(0);
  /** The hash table: per cell an entry's index plus one (0 for an empty cell), at most half full. */
  private table = new Int32Array(0);
  private tableMask = -1;
  private held = 0;
  private hand = 0;
  private readonly maxEntries: number;

  constructor(limits: FingerprintCacheLimits) {
    this.maxEntries = Math.max(1, Math.floor(limits.maxEntries));
    this.values = limits.values === false ? null : new Float64Array(0);
  }

  /** The value held for `key` (its entry is marked referenced), or undefined. */
  get(key: string): number | undefined {
    if (this.held === 0) return undefined;
    fingerprint(key);
    return this.hit(fingerprintHigh, fingerprintLow);
  }

  /** True when `key` is held (a hit is marked referenced, as by get). */
  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /**
   * The value held for an integer id in [0, 2^53) (a store row id), or undefined: ids are kept
   * exactly, never as a fingerprint. A cache keyed by ids takes no string keys (they could meet).
   */
  getById(id: number): number | undefined {
    if (this.held === 0) return undefined;
    idFingerprint(id);
    return this.hit(fingerprintHigh, fingerprintLow);
  }

  /** Holds `value` for an integer id in [0, 2^53) (see {@link getById}). */
  setById(id: number, value: number): void {
    idFingerprint(id);
    this.setFingerprint(fingerprintHigh, fingerprintLow, value);
  }

  /** Holds `value` for `key`, replacing the value held; a new entry may evict another (see the module comment). */
  set(key: string, value: number): void {
    fingerprint(key);
    this.setFingerprint(fingerprintHigh, fingerprintLow, value);
  }

  private setFingerprint(high: number, low: number, value: number): void {
    if (this.held > 0) {
      const found = this.find(high, low);
      if (found >= 0) {
        if (this.values !== null) this.values[found] = value;
        this.referenced[found] = 1;
        return;
      }
    }
    let entry: number;
    if (this.held >= this.maxEntries) entry = this.evictOne();
    else {
      if (this.held === this.high.length) this.grow();
      entry = this.held;
      this.held += 1;
    }
    this.high[entry] = high;
    this.low[entry] = low;
    if (this.values !== null) this.values[entry] = value;
    // A new entry starts unmarked: the hand's next pass evicts it unless it was read by then.
    this.referenced[entry] = 0;
    this.place(entry);
  }

  /** Entries held now (at most `maxEntries`). */
  get size(): number {
    return this.held;
  }

  /** Bytes of the arrays now: {@link FINGERPRINT_SLOT_BYTES} an entry ({@link FINGERPRINT_SET_SLOT_BYTES} for a set) and 4 a table cell. */
  get bytes(): number {
    return this.high.length * (this.values === null ? FINGERPRINT_SET_SLOT_BYTES : FINGERPRINT_SLOT_BYTES) + this.table.byteLength;
  }

  /** The value held for fingerprint (high, low), its entry marked referenced; undefined when not held. */
  private hit(high: number, low: number): number | undefined {
    const entry = this.find(high, low);
    if (entry < 0) return undefined;
    this.referenced[entry] = 1;
    return this.values === null ? 1 : this.values[entry];
  }

  /** The entry holding fingerprint (high, low), or -1. */
  private find(high: number, low: number): number {
    const mask = this.tableMask;
    let cell = low & mask;
    for (;;) {
      const stored = this.table[cell]!;
      if (stored === 0) return -1;
      const entry = stored - 1;
      if (this.low[entry] === low && this.high[entry] === high) return entry;
      cell = (cell + 1) & mask;
    }
  }

  /** Puts `entry` in the first empty cell from its fingerprint's home (linear probing). */
  private place(entry: number): void {
    const mask = this.tableMask;
    let cell = this.low[entry]! & mask;
    while (this.table[cell] !== 0) cell = (cell + 1) & mask;
    this.table[cell] = entry + 1;
  }

  /**
   * Doubles the entry arrays (1,024 entries first, maxEntries at most) and the table with them (a
   * power of two at least twice the entries), placing every entry again.
   */
  private grow(): void {
    const capacity = Math.min(this.maxEntries, Math.max(FIRST_CAPACITY, 2 * this.high.length));
    this.high = grownCopy(this.high, new Uint32Array(capacity));
    this.low = grownCopy(this.low, new Uint32Array(capacity));
    if (this.values !== null) this.values = grownCopy(this.values, new Float64Array(capacity));
    this.referenced = grownCopy(this.referenced, new Uint8Array(capacity));
    let cells = FIRST_CAPACITY;
    while (cells < capacity / MAX_LOAD) cells *= 2;
    if (cells === this.table.length) return;
    this.table = new Int32Array(cells);
    this.tableMask = cells - 1;
    for (let entry = 0; entry < this.held; entry += 1) this.place(entry);
  }

  /**
   * Sweeps the clock hand over the entries to the first one not marked referenced (clearing the
   * marks it passes, so it stops within two turns), takes it out of the table and returns its
   * index, for the new entry to take.
   */
  private evictOne(): number {
    for (;;) {
      const entry = this.hand;
      this.hand = entry + 1 >= this.held ? 0 : entry + 1;
      if (this.referenced[entry] === 1) {
        this.referenced[entry] = 0;
        continue;
      }
      this.unplace(entry);
      return entry;
    }
  }

  /** Takes `entry` out of the table, shifting back the cells after it whose home lies at or before its cell (backward-shift deletion). */
  private unplace(entry: number): void {
    const mask = this.tableMask;
    let hole = this.low[entry]! & mask;
    while (this.table[hole] !== entry + 1) hole = (hole + 1) & mask;
    let next = (hole + 1) & mask;
    for (;;) {
      const stored = this.table[next]!;
      if (stored === 0) break;
      const home = this.low[stored - 1]! & mask;
      // The entry at `next` may fill the hole unless its home is in the cyclic range (hole, next].
      const homeAfterHole = hole <= next ? home > hole && home <= next : home > hole || home <= next;
      if (!homeAfterHole) {
        this.table[hole] = stored;
        hole = next;
      }
      next = (next + 1) & mask;
    }
    this.table[hole] = 0;
  }
}
