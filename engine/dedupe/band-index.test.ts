/** The in-memory LSH band rows (band-index.ts): the store's index order, merges, repeats and the byte bound. */
import { describe, expect, it } from 'vitest';
import { BAND_INDEX_ROW_BYTES, BandIndex, bandKey, bandOfKey, bucketOfKey } from './band-index';

type Row = [band: number, bucket: number, urlId: number];

/** What the table answers: rows of (band, bucket) other than `except`, by URL id, at most `limit`. */
function tableAnswer(rows: readonly Row[], band: number, bucket: number, except: number, limit: number): number[] {
  return [...new Set(rows.filter((row) => row[0] === band && row[1] === bucket && row[2] !== except).map((row) => row[2]))].sort((a, b) => a - b).slice(0, limit);
}

function sortedRows(rows: readonly Row[]): Row[] {
  return [...rows].sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
}

describe('BandIndex', () => {
  it('orders keys as SQLite orders (band, signed bucket)', () => {
    expect(bandKey(0, -1)).toBeLessThan(bandKey(0, 0));
    expect(bandKey(0, -(2 ** 31))).toBeLessThan(bandKey(0, 2 ** 31 - 1));
    expect(bandKey(0, 2 ** 31 - 1)).toBeLessThan(bandKey(1, -(2 ** 31)));
  });

  it('takes a key back apart into its band and signed bucket', () => {
    for (const [band, bucket] of [[0, 0], [0, -1], [3, -(2 ** 31)], [15, 2 ** 31 - 1], [7, 123_456_789], [2 ** 19, -5]] as const) {
      expect([bandOfKey(bandKey(band, bucket)), bucketOfKey(bandKey(band, bucket))]).toEqual([band, bucket]);
    }
  });

  it('hands out its rows in key order, and accepts a run only when it would stay complete', () => {
    const index = new BandIndex(BAND_INDEX_ROW_BYTES * 4);
    const keys = Float64Array.of(bandKey(1, -3), bandKey(0, 9));
    const ids = Float64Array.of(5, 2);
    expect(index.accepts(keys, ids)).toBe(true);
    // Given out of order: sorted on the way in.
    index.addSortedKeys(keys, ids);
    expect(Array.from({ length: index.rows }, (_, at) => [index.keyAt(at), index.idAt(at)])).toEqual([
      [bandKey(0, 9), 2],
      [bandKey(1, -3), 5],
    ]);
    expect(index.accepts(Float64Array.of(bandKey(2, 0)), Float64Array.of(2 ** 32))).toBe(false);
    expect(index.accepts(Float64Array.of(bandKey(2, 0), bandKey(2, 1), bandKey(2, 2)), Float64Array.of(1, 1, 1))).toBe(false);
    expect(index.accepts(Float64Array.of(bandKey(2, 0), bandKey(2, 1)), Float64Array.of(1, 1))).toBe(true);
    expect(index.complete).toBe(true);
    index.drop();
    expect(index.accepts(Float64Array.of(bandKey(2, 0)), Float64Array.of(1))).toBe(false);
    expect(index.membersOf(0, 9, 0, 10)).toEqual([]);
  });

  it('answers every probe as the table would, over many sorted runs, unsorted runs and repeats', () => {
    let state = 11;
    const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0);
    const index = new BandIndex();
    const all: Row[] = [];
    for (let run = 0; run < 40; run += 1) {
      const rows: Row[] = [];
      for (let i = 0; i < 200; i += 1) {
        // Few buckets, so they crowd; some signed buckets; some rows repeated from earlier runs.
        const repeat = all.length > 0 && random() % 10 === 0;
        rows.push(repeat ? all[random() % all.length]! : [random() % 4, (random() % 30) - 15, 1 + (random() % 5000)]);
      }
      const given = run % 5 === 0 ? rows : sortedRows(rows);
      index.addSorted(given.length, (at) => given[at]!);
      all.push(...rows);
    }
    expect(index.complete).toBe(true);
    expect(index.rows).toBe(new Set(all.map((row) => row.join())).size);
    // Every row once, in the table's order, as keyAt/idAt hand them out (what a drop writes to the table).
    const unique = sortedRows([...new Map(all.map((row) => [row.join(), row])).values()]);
    expect(Array.from({ length: index.rows }, (_, at) => [index.keyAt(at), index.idAt(at)])).toEqual(unique.map(([band, bucket, urlId]) => [bandKey(band, bucket), urlId]));
    for (let band = 0; band < 4; band += 1) {
      for (let bucket = -16; bucket <= 16; bucket += 1) {
        for (const limit of [1, 3, 64]) {
          const except = all.find((row) => row[0] === band && row[1] === bucket)?.[2] ?? 0;
          expect(index.membersOf(band, bucket, except, limit), `${band}/${bucket}/${limit}`).toEqual(tableAnswer(all, band, bucket, except, limit));
        }
      }
    }
  });

  it('drops itself for good when its rows would pass its bytes, and a bound of 0 keeps none', () => {
    const index = new BandIndex(BAND_INDEX_ROW_BYTES * 100);
    const rows: Row[] = Array.from({ length: 60 }, (_, i) => [0, i, i + 1]);
    index.addSorted(rows.length, (at) => rows[at]!);
    expect(index.complete).toBe(true);
    expect(index.membersOf(0, 5, 0, 10)).toEqual([6]);
    index.addSorted(rows.length, (at) => [1, rows[at]![1], rows[at]![2]]);
    expect(index.complete).toBe(false);
    expect(index.rows).toBe(0);
    expect(index.bytes).toBe(0);
    expect(index.membersOf(0, 5, 0, 10)).toEqual([]);
    expect(new BandIndex(0).complete).toBe(false);
  });

  it('drops itself for a URL id its column cannot hold', () => {
    const index = new BandIndex();
    index.addSorted(1, () => [0, 1, 2 ** 32]);
    expect(index.complete).toBe(false);
  });
});
