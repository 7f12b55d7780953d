// Background WAL flushes: at most one at a time and one per interval, failures swallowed (the
// checkpoint syncs the file itself), and a real fdatasync of a file, a missing one being nothing to do.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { datasyncFile, WalPresync } from './wal-presync';

describe('WalPresync', () => {
  it('starts a flush after a write unless one runs or the last started less than the interval ago', async () => {
    let nowMs = 0;
    const flushes: { file: string; finish: () => void }[] = [];
    const presync = new WalPresync(
      '/db.sqlite-wal',
      250,
      () => nowMs,
      (file) => new Promise<void>((finish) => flushes.push({ file, finish })),
    );
    const first = presync.afterWrite();
    expect(flushes.map((flush) => flush.file)).toEqual(['/db.sqlite-wal']);
    // Still flushing, and past the interval: no second flush at once.
    nowMs = 1_000;
    void presync.afterWrite();
    expect(flushes).toHaveLength(1);
    flushes[0]!.finish();
    await first;
    // Done, and the interval since its start is over: the next write starts one.
    const second = presync.afterWrite();
    expect(flushes).toHaveLength(2);
    flushes[1]!.finish();
    await second;
    // Done, but started only 100 ms ago: none.
    nowMs = 1_100;
    await presync.afterWrite();
    expect(flushes).toHaveLength(2);
    nowMs = 1_250;
    void presync.afterWrite();
    expect(flushes).toHaveLength(3);
    expect(presync.started).toBe(3);
  });

  it('a failed flush is swallowed and the next one starts as usual', async () => {
    let nowMs = 0;
    let calls = 0;
    const presync = new WalPresync(
      'x-wal',
      10,
      () => nowMs,
      async () => {
        calls += 1;
        throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
      },
    );
    await expect(presync.afterWrite()).resolves.toBeUndefined();
    nowMs = 10;
    await presync.afterWrite();
    expect(calls).toBe(2);
  });

  it('datasyncFile flushes a real file, takes a missing one as nothing to flush, and reports other errors', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-presync-'));
    try {
      const file = path.join(dir, 'crawl.db-wal');
      fs.writeFileSync(file, Buffer.alloc(8192, 1));
      await expect(datasyncFile(file)).resolves.toBeUndefined();
      expect(fs.readFileSync(file)).toEqual(Buffer.alloc(8192, 1));
      await expect(datasyncFile(path.join(dir, 'gone.db-wal'))).resolves.toBeUndefined();
      await expect(datasyncFile(dir)).rejects.toMatchObject({ code: 'EISDIR' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
