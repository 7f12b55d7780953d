import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommand } from '../run-command';
import { serveCommand } from './serve';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawlbench-serve-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('crawlbench serve', () => {
  it('refuses a --token that could not travel in the URL path, in one line with exit code 2', async () => {
    const run = await runCommand(serveCommand, ['--db', path.join(dir, 'a.db'), '--token', 'short/one'], '');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('crawlbench: The token must be 16 to 256 letters, digits, "_" or "-"\n');
  });

  it('a --token that begins with "-" is refused with the form that works (--token=VALUE), not called a negative number', async () => {
    const token = '-6KbbuUGDKZTMMXGEaukSQXJxzfmbIZ7';
    const run = await runCommand(serveCommand, ['--db', path.join(dir, 'a.db'), '--token', token], '');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`crawlbench: INVALID_FLAG: --token got "${token}", which is not a valid value; a value that begins with "-" is written --token=${token} (see crawlbench serve --help)\n`);
    const negative = await runCommand(serveCommand, ['--db', path.join(dir, 'a.db'), '--port', '-80'], '');
    expect(negative.stderr).toContain('--port got "-80", which is not a valid value (negative numbers are refused)');
  });

  it('says in one line when its port is taken, instead of throwing', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      const run = await runCommand(serveCommand, ['--db', path.join(dir, 'a.db'), '--port', String(port)], '');
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^crawlbench: listen EADDRINUSE.*\n$/);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
