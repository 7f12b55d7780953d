// The writer thread's packed commit batch (batch-codec.ts): every field of every row survives the trip through
// columns (and a real structured clone), nulls and absent fields kept apart.
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { CommitBatch } from '../ports';
import { packCommitBatch, unpackCommitBatch } from './batch-codec';

const batch: CommitBatch = {
  nowMs: 1_700_000_000_123,
  candidates: [
    { url: 'http://a.test/x', normalized: 'http://a.test/x', normalizedKey: 'a.test/x', host: 'a.test', registrableDomain: 'a.test', depth: 0, discoveredFrom: null },
    { url: 'http://A.test/Ü?b=1&a=2', normalized: 'http://a.test/%C3%9C?a=2&b=1', normalizedKey: 'k\u0000nul', host: 'a.test', registrableDomain: null, depth: 3, discoveredFrom: 17, redirectHops: 2, heldBy: '/cal/*', source: 'sitemap' },
    { url: '', normalized: 'http://b.test/😀', normalizedKey: '', host: 'b.test', registrableDomain: 'b.test', depth: 1, discoveredFrom: 0, redirectHops: 0, source: 'link' },
  ],
  links: [
    { fromUrlId: 1, rawUrl: '/x', toKey: 'a.test/x', kind: 'a', refusedBy: null },
    { fromUrlId: 1, rawUrl: 'mailto:x@y', toKey: null, kind: 'a', refusedBy: 'protocol', anchorText: null, rel: 'nofollow ugc' },
    { fromUrlId: 2 ** 40, rawUrl: 'http://b.test/\u0000', toKey: 'b', kind: 'canonical', refusedBy: null, anchorText: '', rel: null },
  ],
  aliases: [
    { toKey: 'a.test/x', rawUrl: 'http://A.test/x', fromUrlId: null },
    { toKey: 'b', rawUrl: 'http://b.test/#top', fromUrlId: 4, fragmentSpellings: 3 },
  ],
  outcomes: [{ kind: 'done', url: { id: 1, url: 'http://a.test/x', host: 'a.test', depth: 0, attempts: 1, redirectHops: 0 }, disposition: { fetchMs: 5, nowMs: 7 } }],
  status: { status: 'running', finishedAtMs: null },
};

describe('packCommitBatch / unpackCommitBatch', () => {
  it('give back every row with exactly its fields, through a structured clone', () => {
    const { port1, port2 } = new MessageChannel();
    port1.postMessage(packCommitBatch(batch));
    const received = receiveMessageOnPort(port2)!.message as ReturnType<typeof packCommitBatch>;
    port1.close();
    expect(unpackCommitBatch(received)).toStrictEqual(batch);
  });

  it('packs an empty batch, and rows as typed arrays and one string per column', () => {
    expect(unpackCommitBatch(packCommitBatch({ nowMs: 1 }))).toStrictEqual({ nowMs: 1, candidates: [], links: [], aliases: [] });
    const packed = packCommitBatch(batch);
    expect(packed.links.numbers['fromUrlId']).toBeInstanceOf(Float64Array);
    expect(packed.links.strings['rawUrl']!.text).toBe('/xmailto:x@yhttp://b.test/\u0000');
    expect(Object.keys(packed.rest).sort()).toEqual(['nowMs', 'outcomes', 'status']);
  });
});
