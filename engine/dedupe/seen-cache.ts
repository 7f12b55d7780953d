import { FingerprintCache } from './fingerprint-cache';

/** Limits of a {@link BoundedCache}. */
export interface BoundedCacheOptions<V, K extends string | number = string> {
  /** Entries kept at most. @default 100_000 */
  maxEntries?: number;
  /**
   * Estimated bytes kept at most (keys and values, as `sizeOf` counts them). An entry larger than
   * half of it is never stored. @default Infinity (entries only)
   */
  maxBytes?: number;
  /**
   * Estimated bytes of one entry. @default {@link estimateStringBytes} of a string key (8 for a
   * number key) plus 64 (a small value and the Map slot); give one whenever values hold strings of their own.
   */
  sizeOf?: (key: K, value: V) => number;
}

/**
 * Estimated heap bytes of a string: 2 bytes a character (V8 keeps ASCII in one, but a single
 * non-Latin-1 character doubles the whole string) plus a header.
 */
export function estimateStringBytes(text: string): number {
  return 2 * text.length + 24;
}

/**
 * A bounded map (string or number keys) with CLOCK eviction (second chance; Corbató 1968, the page
 * replacement of most operating systems): entries sit in slots, a hit only marks its slot
 * referenced, and to make room the clock hand sweeps the slots, clearing marks and evicting the
 * first entry not referenced since the hand last passed. A hit costs one map look-up and no write
 * to the map, and memory stays flat: at most `maxEntries` entries and about `maxBytes` bytes,
 * whatever the keys (a page can make them 60 KB).
 *
 * It replaced two generations of Maps (a hit in the old one copied into the young one, the old one
 * dropped whole when the young one filled), which kept a working set whole only while it fit in
 * half the budget, and past that paid an insert on most hits and dropped a generation of entries
 * at a time. On the 100,000-page synthetic crawl every URL of the site is in the link-target
 * cache's working set (105,000 targets; its byte budget holds about 123,000): in a replay of that
 * (105,000 URLs read in uniform random order, 5M reads) the generations hit 74.5% of reads, this
 * 97.9%; a miss costs the main thread a normalization and a UUIDv5 key.
 */
export class BoundedCache<V, K extends string | number = string> {
  /** Slot of each key held. */
  private readonly slotOf = new Map<K, number>();
  /** Per slot: its key and value (undefined when free), its estimated bytes and its referenced mark. */
  private readonly keys: (K | undefined)[] = [];
  private readonly values: (V | undefined)[] = [];
  private sizes = new Float64Array(0);
  private referenced = new Uint8Array(0);
  /** Slots emptied to make room in bytes, for the next entries. */
  private readonly free: number[] = [];
  /** The clock hand: the next slot the sweep looks at. */
  private hand = 0;
  private bytesHeld = 0;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly sizeOf: (key: K, value: V) => number;

  /** @param limits entries kept at most (a number, @default 100_000), or {@link BoundedCacheOptions} */
  constructor(limits: number | BoundedCacheOptions<V, K> = 100_000) {
    const options = typeof limits === 'number' ? { maxEntries: limits } : limits;
    this.maxEntries = Math.max(1, Math.floor(options.maxEntries ?? 100_000));
    this.maxBytes = options.maxBytes ?? Infinity;
    this.sizeOf = options.sizeOf ?? ((key) => (typeof key === 'string' ? estimateStringBytes(key) : 8) + 64);
  }

  get(key: K): V | undefined {
    const slot = this.slotOf.get(key);
    if (slot === undefined) return undefined;
    this.referenced[slot] = 1;
    return this.values[slot];
  }

  /** True when `key` is held (a hit is marked referenced, as by get). */
  has(key: K): boolean {
    return this.get(key) !== undefined;
  }

  /** Stores `value` under `key`; an entry larger than half of `maxBytes` is not stored. */
  set(key: K, value: V): void {
    const bytes = this.maxBytes !== Infinity ? this.sizeOf(key, value) : 0;
    if (bytes > this.maxBytes / 2) return;
    let slot = this.slotOf.get(key);
    if (slot !== undefined) {
      // Replaced in place: the bytes change by the difference, and other entries make room if it grew.
      this.bytesHeld += bytes - this.sizes[slot]!;
      this.values[slot] = value;
      this.sizes[slot] = bytes;
      this.referenced[slot] = 1;
      this.makeRoom(0, slot);
      return;
    }
    this.makeRoom(bytes, -1);
    slot = this.free.pop() ?? (this.keys.length < this.maxEntries ? this.keys.length : this.evictOne(-1));
    if (slot >= this.sizes.length) this.grow();
    this.keys[slot] = key;
    this.values[slot] = value;
    this.sizes[slot] = bytes;
    // A new entry starts unmarked: the hand's next pass evicts it unless it was read by then.
    this.referenced[slot] = 0;
    this.slotOf.set(key, slot);
    this.bytesHeld += bytes;
  }

  /** Entries held now (at most `maxEntries`). */
  get size(): number {
    return this.slotOf.size;
  }

  /** Estimated bytes held now (at most `maxBytes`; 0 when the cache counts entries only). */
  get bytes(): number {
    return this.bytesHeld;
  }

  /** Doubles the per-slot typed arrays (1,024 slots first, maxEntries at most). */
  private grow(): void {
    const capacity = Math.min(this.maxEntries, Math.max(1024, 2 * this.sizes.length));
    const sizes = new Float64Array(capacity);
    sizes.set(this.sizes);
    const referenced = new Uint8Array(capacity);
    referenced.set(this.referenced);
    this.sizes = sizes;
    this.referenced = referenced;
  }

  /** Evicts entries until `incoming` more bytes fit in maxBytes, never the one in slot `keep` (-1: none); their slots go to `free`. */
  private makeRoom(incoming: number, keep: number): void {
    while (this.bytesHeld + incoming > this.maxBytes && this.slotOf.size > (keep === -1 ? 0 : 1)) this.free.push(this.evictOne(keep));
  }

  /**
   * Sweeps the clock hand to the first held entry not marked referenced (clearing the marks it
   * passes, so it stops within two turns), evicts it and returns its slot, empty now. Never slot
   * `keep`; the caller makes sure another entry is held.
   */
  private evictOne(keep: number): number {
    const slots = this.keys.length;
    for (;;) {
      const slot = this.hand;
      this.hand = slot + 1 >= slots ? 0 : slot + 1;
      const key = this.keys[slot];
      if (slot === keep || key === undefined) continue;
      if (this.referenced[slot] === 1) {
        this.referenced[slot] = 0;
        continue;
      }
      this.slotOf.delete(key);
      this.keys[slot] = undefined;
      this.values[slot] = undefined;
      this.bytesHeld -= this.sizes[slot]!;
      this.sizes[slot] = 0;
      return slot;
    }
  }
}

/**
 * Entries of a {@link seenCache}: 5.2 MiB at most (196,608 entries of 17 bytes, 524,288 table cells
 * of 4). As a Map of the 36-character keys the writer's held 100,000 (about 11 MB) and the
 * scheduler's 200,000 (32 MiB).
 */
export const SEEN_CACHE_ENTRIES = 196_608;

/**
 * The fast path of the URL-seen test (IIR 20.2.2, whose URL-seen test also keeps fingerprints):
 * normalized key → {@link seenEntry} (the URL's id with its source bits), as a 64-bit fingerprint
 * of the key (fingerprint-cache.ts). It only ever holds keys already in the store, so a miss falls
 * back to the database; a hit names the stored URL but for a fingerprint collision (about 5·10^-9
 * over a million look-ups of other keys against 100,000 held), which would take the new URL for
 * the one held, as a collision of the UUIDv5 keys themselves would. The store writer's
 * (frontier-rows.ts) and the scheduler's (result-committer.ts) are each one of these.
 */
export function seenCache(): FingerprintCache {
  return new FingerprintCache({ maxEntries: SEEN_CACHE_ENTRIES });
}

/** Source bits a {@link seenEntry} holds beside the id (shared/types/url-sources.ts uses 5). */
const SOURCE_BITS_SPAN = 64;

/**
 * One number holding a URL id and its source bitmask (below 64), exact for ids up to 2^47.
 * @example seenEntry(3, 6) → 198; seenEntryId(198) → 3; seenEntrySources(198) → 6
 */
export function seenEntry(id: number, sources: number): number {
  return id * SOURCE_BITS_SPAN + (sources % SOURCE_BITS_SPAN);
}

/** The URL id of a {@link seenEntry}. */
export function seenEntryId(entry: number): number {
  return Math.floor(entry / SOURCE_BITS_SPAN);
}

/** The source bitmask of a {@link seenEntry}. */
export function seenEntrySources(entry: number): number {
  return entry % SOURCE_BITS_SPAN;
}
