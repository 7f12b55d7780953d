/**
 * Page-text benchmark (issue 15): the crawl worker's two per-page text passes on pages of several
 * scripts, against the straightforward way of doing each, measured in the same run.
 * - The page scan (engine/parse/parse-html.ts: its tokenizer skips by indexOf, skipping-tokenizer.ts)
 *   against the same scan on htmlparser2's own Tokenizer.
 * - The content sketch (engine/dedupe/shingles.ts textSketchUtf8: one pass, a byte path for
 *   one-byte letters) against the word-list path it is property-tested against (textWords,
 *   shingleHashes, minhash).
 * Pages are the synthetic site's (44 KB, 40,000 characters of text), then the same words with
 * Latin-1 (no-break spaces, ï), with curly quotes and dashes, in Cyrillic, in CJK, and a third box
 * drawing: each takes its own path, and a slow path on one script shows here. Each measurement runs
 * in a worker thread of its own (a fresh V8 isolate: no path's type feedback reaches another's).
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Tokenizer } from 'htmlparser2';
import { minhash, shingleHashes, textSketchUtf8, textWords } from '../engine/dedupe/shingles';
import { parseHtml } from '../engine/parse/parse-html';
import { SkippingTokenizer } from '../engine/parse/skipping-tokenizer';
import { syntheticResponse } from '../testweb/synthetic-site';

const PAGES = 60;
const ROUNDS = 5;

/** The scripts: each turns a synthetic page's HTML into a page of that script (tags kept). */
const SCRIPTS: Record<string, (html: string) => string> = {
  ASCII: (html) => html,
  'Latin-1': (html) => html.replace(/ ka/g, '\u00a0ka').replace(/mi/g, 'mï'),
  'curly quotes': (html) => html.replace(/ (\w+)\./g, ' \u201c$1\u201d\u2014'),
  Cyrillic: (html) => html.replace(/>([^<]+)</g, (_, text: string) => `>${text.replace(/[a-z]/g, (c) => String.fromCharCode(0x430 + ((c.charCodeAt(0) - 97) % 32)))}<`),
  CJK: (html) => html.replace(/>([^<]+)</g, (_, text: string) => `>${text.replace(/[a-z]{2}/g, (pair) => String.fromCharCode(0x4e00 + ((pair.charCodeAt(0) * 31 + pair.charCodeAt(1)) % 4000)))}<`),
  'box drawing': (html) => html.replace(/ (\w+) /g, ' \u2502$1\u2500 '),
};

type Pass = 'scan' | 'scan, library skips' | 'sketch' | 'sketch, word lists';
const PASSES: Record<Pass, (html: string, text: string) => unknown> = {
  scan: (html) => parseHtml(html),
  // The page scan with htmlparser2's own skip loop: the subclass's prototype entry removed for the run.
  'scan, library skips': (html) => parseHtml(html),
  sketch: (_html, text) => textSketchUtf8(text, 300),
  'sketch, word lists': (_html, text) => minhash(shingleHashes(textWords(text))),
};

interface Job {
  script: string;
  pass: Pass;
}

/** Microseconds a page, best of ROUNDS rounds over PAGES pages, in this thread. */
function measure({ script, pass }: Job): { usPerPage: number; chars: number } {
  if (pass === 'scan, library skips') {
    // The library's own method: the subclass keeps no override of its own for this thread.
    delete (SkippingTokenizer.prototype as unknown as Record<string, unknown>)['fastForwardTo'];
    if ((SkippingTokenizer.prototype as unknown as { fastForwardTo: unknown }).fastForwardTo !== (Tokenizer.prototype as unknown as { fastForwardTo: unknown }).fastForwardTo) throw new Error('the library skip is not in place');
  }
  const shape = { hosts: 200, pagesPerHost: 101 };
  const html = Array.from({ length: PAGES }, (_, i) => SCRIPTS[script]!(syntheticResponse(shape, 'h1.synthetic.test', `/p/${i + 1}`).body));
  const text = html.map((page) => parseHtml(page).text);
  const run = PASSES[pass];
  let best = Infinity;
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    for (let i = 0; i < PAGES; i += 1) run(html[i]!, text[i]!);
    best = Math.min(best, ((performance.now() - started) * 1000) / PAGES);
  }
  return { usPerPage: best, chars: text[0]!.length };
}

function inThread(job: Job): Promise<{ usPerPage: number; chars: number }> {
  return new Promise((resolve, reject) => {
    // Through tsx in the thread too (engine/worker/tsx-bootstrap.mjs imports `entry`).
    const worker = new Worker(new URL('../engine/worker/tsx-bootstrap.mjs', import.meta.url), { workerData: { ...job, entry: import.meta.url } });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

export async function runPageTextBench(): Promise<void> {
  console.log(`page text: ${PAGES} synthetic pages a script (44 KB of HTML), best of ${ROUNDS} rounds, each measurement in a fresh worker thread`);
  for (const script of Object.keys(SCRIPTS)) {
    const result: Partial<Record<Pass, number>> = {};
    let chars = 0;
    for (const pass of Object.keys(PASSES) as Pass[]) {
      const measured = await inThread({ script, pass });
      result[pass] = measured.usPerPage;
      chars = measured.chars;
    }
    const scan = result['scan']!;
    const sketch = result['sketch']!;
    console.log(
      `  ${script.padEnd(13)} ${String(chars).padStart(6)} chars  scan ${scan.toFixed(0).padStart(5)} µs (library skips ${result['scan, library skips']!.toFixed(0)} µs, ${(result['scan, library skips']! / scan).toFixed(2)}×)  sketch ${sketch.toFixed(0).padStart(5)} µs, ${((sketch * 1000) / chars).toFixed(1)} ns a character (word lists ${result['sketch, word lists']!.toFixed(0)} µs, ${(result['sketch, word lists']! / sketch).toFixed(2)}×)`,
    );
  }
}

if (!isMainThread && workerData !== null && typeof workerData === 'object' && 'pass' in workerData) parentPort?.postMessage(measure(workerData as Job));
