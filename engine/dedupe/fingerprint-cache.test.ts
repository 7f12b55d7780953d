import { describe, expect, it } from 'vitest';
import { FINGERPRINT_SET_SLOT_BYTES, FINGERPRINT_SLOT_BYTES, FingerprintCache, stringFingerprint, stringFingerprint53 } from './fingerprint-cache';

/** A deterministic pseudo-random sequence (xorshift32), so a failure replays. */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
}

describe('FingerprintCache', () => {
  it('holds keys with their values, replaces a value in place and tells held from not held', () => {
    const cache = new FingerprintCache({ maxEntries: 100 });
    expect(cache.get('http://a.test/')).toBeUndefined();
    cache.set('http://a.test/', 7);
    cache.set('http://b.test/', 2 ** 40 + 3);
    expect(cache.get('http://a.test/')).toBe(7);
    expect(cache.get('http://b.test/')).toBe(2 ** 40 + 3);
    expect(cache.has('http://c.test/')).toBe(false);
    cache.set('http://a.test/', 8);
    expect(cache.get('http://a.test/')).toBe(8);
    expect(cache.size).toBe(2);
  });

  it('as a set keeps no values: a held key reads as 1, in entries of fewer bytes', () => {
    const set = new FingerprintCache({ maxEntries: 100, values: false });
    set.set('x', 5);
    expect(set.get('x')).toBe(1);
    expect(set.has('y')).toBe(false);
    // 100 entries at most, and a table of 1,024 cells (the smallest) of 4 bytes.
    expect(set.bytes).toBe(100 * FINGERPRINT_SET_SLOT_BYTES + 1024 * 4);
    const map = new FingerprintCache({ maxEntries: 100 });
    map.set('x', 5);
    expect(map.bytes).toBe(100 * FINGERPRINT_SLOT_BYTES + 1024 * 4);
  });

  it('never holds more than maxEntries, and its arrays stop growing at the size that holds them', () => {
    const cache = new FingerprintCache({ maxEntries: 5_000 });
    for (let i = 0; i < 50_000; i += 1) cache.set(`http://h${i % 97}.test/p/${i}`, i);
    expect(cache.size).toBe(5_000);
    // 5,000 entries, and a table at most half full: 16,384 cells.
    expect(cache.bytes).toBe(5_000 * FINGERPRINT_SLOT_BYTES + 16_384 * 4);
  });

  it('gives a second chance: entries read since the hand last passed outlive those never read', () => {
    const cache = new FingerprintCache({ maxEntries: 1_000 });
    for (let i = 0; i < 1_000; i += 1) cache.set(`hot-${i}`, i);
    // Read half of them, then add as many new ones as there are unread: the unread ones go first
    // (each new entry takes an evicted one's place, behind the hand).
    for (let i = 0; i < 1_000; i += 2) cache.get(`hot-${i}`);
    for (let i = 0; i < 500; i += 1) cache.set(`new-${i}`, i);
    let readKept = 0;
    let unreadKept = 0;
    for (let i = 0; i < 1_000; i += 1) {
      if (cache.get(`hot-${i}`) === undefined) continue;
      if (i % 2 === 0) readKept += 1;
      else unreadKept += 1;
    }
    expect(readKept).toBe(500);
    expect(unreadKept).toBe(0);
  });

  it('agrees with a Map on every key it still holds through random sets, hits and evictions (backward-shift deletion keeps every probe run whole)', () => {
    const next = random(0x5eed);
    const cache = new FingerprintCache({ maxEntries: 700 });
    const model = new Map<string, number>();
    for (let step = 0; step < 60_000; step += 1) {
      // Keys from a small universe, so sets replace, reads hit, and the table is always evicting.
      const key = `k${Math.floor(next() * 3_000)}`;
      if (next() < 0.6) {
        const value = Math.floor(next() * 1e9);
        cache.set(key, value);
        model.set(key, value);
        // What was just set is held.
        expect(cache.get(key)).toBe(value);
      } else {
        const held = cache.get(key);
        if (held !== undefined) expect(held).toBe(model.get(key));
      }
      expect(cache.size).toBeLessThanOrEqual(700);
    }
    let found = 0;
    for (const [key, value] of model) {
      const held = cache.get(key);
      if (held === undefined) continue;
      expect(held).toBe(value);
      found += 1;
    }
    // Every entry it counts can be found by its key (a broken probe run would hide some).
    expect(found).toBe(cache.size);
    expect(found).toBe(700);
  });
});

describe('FingerprintCache by id', () => {
  it('keeps integer ids exactly: sequential, large (past 2^32) and neighbouring ids never share an entry', () => {
    const cache = new FingerprintCache({ maxEntries: 10_000 });
    const ids = [0, 1, 2, 0xffff_ffff, 0x1_0000_0000, 0x1_0000_0001, 2 ** 52 + 1, 2 ** 53 - 1];
    for (let id = 100; id < 9_000; id += 1) ids.push(id);
    ids.forEach((id, index) => cache.setById(id, index));
    ids.forEach((id, index) => expect(cache.getById(id), String(id)).toBe(index));
    expect(cache.getById(9_000)).toBeUndefined();
    expect(cache.getById(2 ** 52)).toBeUndefined();
  });
});

describe('stringFingerprint53', () => {
  it('is a whole number below 2^53, equal for equal strings and different for near ones', () => {
    const a = stringFingerprint53('http://h1.synthetic.test/p/1');
    expect(Number.isSafeInteger(a) && a >= 0).toBe(true);
    expect(stringFingerprint53('http://h1.synthetic.test/p/1')).toBe(a);
    expect(stringFingerprint53('http://h1.synthetic.test/p/2')).not.toBe(a);
    expect(stringFingerprint53('http://h1.synthetic.test/p/1/')).not.toBe(a);
  });
});

describe('stringFingerprint', () => {
  it('gives 200,000 distinct URL-like keys (and their UUID-like normalized keys) 400,000 distinct fingerprints', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200_000; i += 1) {
      for (const key of [`http://h${i % 500}.synthetic.test/p/${i}`, `${(i * 2654435761) >>> 0}`.padStart(12, '0') + '-5bd1-4e99-8c1a-' + i.toString(16).padStart(12, '0')]) {
        const [high, low] = stringFingerprint(key);
        seen.add(`${high}:${low}`);
      }
    }
    expect(seen.size).toBe(400_000);
  });

  it('tells apart keys that differ in one character, by length alone, or by order', () => {
    const keys = ['', 'a', 'b', 'ab', 'ba', 'aa', 'a\u0000', '\u0000a', 'http://x.test/a', 'http://x.test/b', 'http://x.test/ab'];
    const fingerprints = new Set(keys.map((key) => stringFingerprint(key).join(':')));
    expect(fingerprints.size).toBe(keys.length);
  });
});
