/**
 * The fetch+parse floor (issue 15): undici GETs of a fixed URL list and href extraction with
 * htmlparser2's Tokenizer (no DOM, no URL resolution), in 2 worker threads that each fetch and
 * parse half the list at half the concurrency. What a crawler that parses cannot go below.
 * Usage: node out/bench/fetch-parse.mjs URL_LIST_FILE CONCURRENCY [CONNECT_ADDRESS]
 * (bench/synthetic.ts bundles it there; CONNECT_ADDRESS as in ./url-list.ts).
 * Prints {"pages":N,"links":N,"cpuSeconds":S} on stdout (pages: responses read; links: <a href> found).
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import { Agent, request } from 'undici';
import { readUrlList, type ListedRequest } from './url-list';

const WORKERS = 2;

/** Every `<a href>` value in `html`, entities decoded (the Tokenizer reports them apart). */
export function extractHrefs(html: string): string[] {
  const hrefs: string[] = [];
  let inAnchor = false;
  let inHref = false;
  let value = '';
  const tokenizer = new Tokenizer(
    { decodeEntities: true },
    {
      onopentagname(start, end) {
        inAnchor = end - start === 1 && (html.charCodeAt(start) | 0x20) === 0x61;
      },
      onattribname(start, end) {
        inHref = inAnchor && end - start === 4 && html.slice(start, end).toLowerCase() === 'href';
        value = '';
      },
      onattribdata(start, end) {
        if (inHref) value += html.slice(start, end);
      },
      onattribentity(codepoint) {
        if (inHref) value += String.fromCodePoint(codepoint);
      },
      onattribend() {
        if (inHref) hrefs.push(value);
        inHref = false;
      },
      onopentagend() {
        inAnchor = false;
      },
      onselfclosingtag() {
        inAnchor = false;
      },
      oncdata() {},
      onclosetag() {},
      oncomment() {},
      ondeclaration() {},
      onend() {},
      onprocessinginstruction() {},
      ontext() {},
      ontextentity() {},
    } satisfies TokenizerCallbacks,
  );
  tokenizer.write(html);
  tokenizer.end();
  return hrefs;
}

async function fetchAndParse(queue: ListedRequest[], concurrency: number): Promise<{ pages: number; links: number }> {
  const agent = new Agent({ connections: concurrency });
  let pages = 0;
  let links = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < queue.length) {
        const item = queue[next++] as ListedRequest;
        const response = await request(item.url, { dispatcher: agent, headers: item.host ? { host: item.host } : {} });
        const body = await response.body.text();
        if (String(response.headers['content-type'] ?? '').startsWith('text/html')) links += extractHrefs(body).length;
        pages += 1;
      }
    }),
  );
  await agent.close();
  return { pages, links };
}

const runAsContender = /fetch-parse\.(mjs|ts)$/.test(process.argv[1] ?? '');
if (isMainThread && runAsContender) {
  const [listFile, concurrencyText, connectAddress] = process.argv.slice(2);
  if (!listFile || !concurrencyText) throw new Error('usage: fetch-parse.ts URL_LIST_FILE CONCURRENCY [CONNECT_ADDRESS]');
  const queue = readUrlList(listFile, connectAddress);
  const concurrency = Number(concurrencyText);
  const results = await Promise.all(
    Array.from({ length: WORKERS }, (_, w) => {
      const share = queue.filter((_item, i) => i % WORKERS === w);
      const worker = new Worker(new URL(import.meta.url), { workerData: { queue: share, concurrency: Math.max(1, Math.round(concurrency / WORKERS)) } });
      return new Promise<{ pages: number; links: number }>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
    }),
  );
  const usage = process.resourceUsage();
  const pages = results.reduce((sum, r) => sum + r.pages, 0);
  const links = results.reduce((sum, r) => sum + r.links, 0);
  process.stdout.write(`${JSON.stringify({ pages, links, cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6 })}\n`);
} else if (!isMainThread) {
  const { queue, concurrency } = workerData as { queue: ListedRequest[]; concurrency: number };
  parentPort?.postMessage(await fetchAndParse(queue, concurrency));
}
