/**
 * The fetch+parse floors (issue 15): undici GETs of a fixed URL list in 2 worker threads that each
 * fetch and parse half the list at half the concurrency, with one of two kinds of page work:
 * - `hrefs` (the default): href extraction with htmlparser2's Tokenizer (no DOM, no URL
 *   resolution). What a crawler that parses cannot go below.
 * - `page-work`: the crawl worker's own work on each answer, Crawlbench's processFetch (charset
 *   decoding, the page scan, link resolution, the visible text's MinHash sketch and SHA-256
 *   fingerprint), and nothing after it: no URL-seen test, frontier, link rules or storage. What
 *   Crawlbench's crawl costs past it is the scheduler's, the store's and the hand-offs between them.
 * Usage: node out/bench/fetch-parse.mjs URL_LIST_FILE CONCURRENCY [CONNECT_ADDRESS|-] [hrefs|page-work]
 * (bench/synthetic.ts bundles it there; CONNECT_ADDRESS as in ./url-list.ts, `-` for none).
 * Prints {"pages":N,"links":N,"cpuSeconds":S} on stdout (pages: responses read; links: <a href>
 * found, or with page-work the links processFetch kept).
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import { Agent, request } from 'undici';
import { processFetch } from '../../engine/parse/page-processor';
import { readUrlList, type ListedRequest } from './url-list';

const WORKERS = 2;

/** What each worker does with an answer (see the file comment). */
export type PageWork = 'hrefs' | 'page-work';
const PAGE_WORKS: readonly PageWork[] = ['hrefs', 'page-work'];

/** Links the crawl worker's page work (processFetch) keeps of one answer; 0 for an answer that is not HTML. */
export function pageWorkLinks(url: string, status: number, headers: Record<string, string | string[] | undefined>, body: Buffer, fetchMs: number): number {
  const contentType = headers['content-type'] === undefined ? undefined : String(headers['content-type']);
  const kept: Record<string, string> = {};
  for (const name of ['link', 'x-robots-tag', 'content-language', 'retry-after']) if (typeof headers[name] === 'string') kept[name] = headers[name] as string;
  const result = processFetch({
    ok: true,
    finalUrl: url,
    status,
    contentType,
    headers: kept,
    responseHeadersJson: '{}',
    body,
    wireBytes: body.length,
    truncated: false,
    redirectChain: [],
    redirect: null,
    fetchMs,
    setCookies: [],
    protocols: ['http/1.1'],
  });
  return result.links.length;
}

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

async function fetchAndParse(queue: ListedRequest[], concurrency: number, work: PageWork): Promise<{ pages: number; links: number }> {
  const agent = new Agent({ connections: concurrency });
  let pages = 0;
  let links = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < queue.length) {
        const item = queue[next++] as ListedRequest;
        const started = performance.now();
        const response = await request(item.url, { dispatcher: agent, headers: item.host ? { host: item.host } : {} });
        if (work === 'hrefs') {
          const body = await response.body.text();
          if (String(response.headers['content-type'] ?? '').startsWith('text/html')) links += extractHrefs(body).length;
        } else {
          const body = Buffer.from(await response.body.arrayBuffer());
          links += pageWorkLinks(item.pageUrl, response.statusCode, response.headers, body, performance.now() - started);
        }
        pages += 1;
      }
    }),
  );
  await agent.close();
  return { pages, links };
}

const runAsContender = /fetch-parse\.(mjs|ts)$/.test(process.argv[1] ?? '');
if (isMainThread && runAsContender) {
  const [listFile, concurrencyText, connectArg, workArg = 'hrefs'] = process.argv.slice(2);
  const work = workArg as PageWork;
  if (!listFile || !concurrencyText || !PAGE_WORKS.includes(work)) throw new Error('usage: fetch-parse.ts URL_LIST_FILE CONCURRENCY [CONNECT_ADDRESS|-] [hrefs|page-work]');
  const queue = readUrlList(listFile, connectArg === '-' ? undefined : connectArg);
  const concurrency = Number(concurrencyText);
  const results = await Promise.all(
    Array.from({ length: WORKERS }, (_, w) => {
      const share = queue.filter((_item, i) => i % WORKERS === w);
      const worker = new Worker(new URL(import.meta.url), { workerData: { queue: share, concurrency: Math.max(1, Math.round(concurrency / WORKERS)), work } });
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
  const { queue, concurrency, work } = workerData as { queue: ListedRequest[]; concurrency: number; work: PageWork };
  parentPort?.postMessage(await fetchAndParse(queue, concurrency, work));
}
