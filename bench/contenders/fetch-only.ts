/**
 * The fetch-only floor: plain undici GETs of a fixed URL list at a fixed concurrency, bodies read
 * and dropped. Usage: node out/bench/fetch-only.mjs URL_LIST_FILE CONCURRENCY [CONNECT_ADDRESS]
 * (bench/crawl.ts and bench/synthetic.ts bundle it there; CONNECT_ADDRESS as in ./url-list.ts).
 * Prints {"pages":N,"cpuSeconds":S} on stdout (pages: responses read, whatever their status).
 */
import { Agent, request } from 'undici';
import { readUrlList } from './url-list';

const [listFile, concurrencyText, connectAddress] = process.argv.slice(2);
if (!listFile || !concurrencyText) throw new Error('usage: fetch-only.ts URL_LIST_FILE CONCURRENCY [CONNECT_ADDRESS]');
const queue = readUrlList(listFile, connectAddress);
const agent = new Agent({ connections: Number(concurrencyText) });
let pages = 0;
let next = 0;
await Promise.all(
  Array.from({ length: Number(concurrencyText) }, async () => {
    while (next < queue.length) {
      const item = queue[next++] as (typeof queue)[number];
      const response = await request(item.url, { dispatcher: agent, headers: item.host ? { host: item.host } : {} });
      await response.body.arrayBuffer();
      pages += 1;
    }
  }),
);
await agent.close();
const usage = process.resourceUsage();
process.stdout.write(`${JSON.stringify({ pages, cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6 })}\n`);
