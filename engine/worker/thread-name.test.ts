import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nameThisThread } from './thread-name';

const COMM = '/proc/thread-self/comm';

describe('nameThisThread', () => {
  it.runIf(fs.existsSync(COMM))('names the calling thread in /proc, cut to 15 bytes (the test thread gets its name back)', () => {
    const before = fs.readFileSync(COMM, 'utf8').trim();
    try {
      nameThisThread('crawlbench-test-thread');
      expect(fs.readFileSync(COMM, 'utf8').trim()).toBe('crawlbench-test');
    } finally {
      fs.writeFileSync(COMM, before);
    }
  });
});
