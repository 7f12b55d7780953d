// The synthetic benchmark's own arithmetic and measuring (bench/ is outside the unit-test globs;
// testweb/ may not import bench/, so they live here).
import { describe, expect, it } from 'vitest';
import { extractHrefs, pageWorkLinks } from '../../bench/contenders/fetch-parse';
import { measureNode } from '../../bench/measure';
import { ratesPerBlock } from '../../bench/synthetic';
import { syntheticResponse } from '../../testweb/synthetic-site';

describe('synthetic benchmark', () => {
  it('finds every <a href> of a synthetic page with the Tokenizer floor, entities decoded', () => {
    const body = syntheticResponse({ hosts: 4, pagesPerHost: 80 }, 'h2.synthetic.test', '/p/9').body;
    const byRegex = [...body.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1]);
    expect(extractHrefs(body)).toEqual(byRegex);
    expect(extractHrefs('<A HREF="/x?a=1&amp;b=2">x</A><link href="/css"><a name=n>no</a><a href=/y>')).toEqual(['/x?a=1&b=2', '/y']);
  });

  it("runs the crawl worker's page work (processFetch) for fetch+work: the Tokenizer floor's links, each distinct one once", () => {
    const page = 'http://h2.synthetic.test/p/9';
    const body = syntheticResponse({ hosts: 4, pagesPerHost: 80 }, 'h2.synthetic.test', '/p/9').body;
    const hrefs = extractHrefs(body);
    const distinct = new Set(hrefs.map((href) => new URL(href, page).href)).size;
    // The synthetic page links some targets twice (navigation and body): the crawl keeps one link a target.
    expect(distinct).toBeGreaterThan(50);
    expect(distinct).toBeLessThan(hrefs.length);
    const html = { 'content-type': 'text/html; charset=utf-8' };
    expect(pageWorkLinks(page, 200, html, Buffer.from(body), 1)).toBe(distinct);
    expect(pageWorkLinks(page, 200, { 'content-type': 'image/png' }, Buffer.from(body), 1)).toBe(0);
  });

  it('turns progress samples into pages/s per block, interpolating block ends and starting at the first sample', () => {
    const samples = [
      { ms: 1000, fetched: 0 },
      { ms: 2000, fetched: 50 },
      { ms: 3000, fetched: 100 },
      { ms: 5000, fetched: 200 },
      { ms: 6000, fetched: 230 },
    ];
    // 100 pages in 2 s, then 100 in 2 s (block end at 5000 ms); 30 pages left make no whole block.
    expect(ratesPerBlock(samples, 100)).toEqual([50, 50]);
    expect(ratesPerBlock([{ ms: 0, fetched: 0 }, { ms: 4000, fetched: 40 }], 10)).toEqual([10, 10, 10, 10]);
    expect(ratesPerBlock([], 10)).toEqual([]);
  });

  it("counts a child's CPU time, its threads included, from the reaped-children counters", async () => {
    // A child whose worker thread spins until the process used 300 ms of CPU, then whose main
    // thread spins until 500 ms (process.cpuUsage counts every thread of the process).
    const script = `
      const { Worker } = require('node:worker_threads');
      const spin = (ms) => { while (process.cpuUsage().user + process.cpuUsage().system < ms * 1000) {} };
      const worker = new Worker('(' + spin + ')(300)', { eval: true });
      worker.once('exit', () => {
        spin(500);
        const used = process.cpuUsage();
        console.log(JSON.stringify({ cpuSeconds: (used.user + used.system) / 1e6 }));
      });`;
    const run = await measureNode(['-e', script]);
    const reported = Number(run.report['cpuSeconds']);
    expect(reported).toBeGreaterThanOrEqual(0.5);
    // The kernel counts in clock ticks (10 ms): allow one tick per thread either way.
    expect(run.cpuSeconds).toBeGreaterThanOrEqual(reported - 0.05);
    expect(run.peakRssMb).toBeGreaterThan(0);
  });
});
