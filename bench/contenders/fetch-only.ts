/**
 * The fetch-only floor: plain undici GETs of a fixed URL list at a fixed concurrency, bodies read
 * and dropped. Usage: node out/bench/fetch-only.mjs URL_LIST_FILE CONCURRENCY (bench/crawl.ts bundles it there)
 * Prints {"pages":N} on stdout.
 */
import fs from 'node:fs';
import { Agent, request } from 'undici';

const [listFile, concurrencyText] = process.argv.slice(2);
if (!listFile || !concurrencyText) throw new Error('usage: fetch-only.ts URL_LIST_FILE CONCURRENCY');
const queue = fs.readFileSync(listFile, 'utf8').split('\n').filter(Boolean);
const agent = new Agent({ connections: Number(concurrencyText) });
let pages = 0;
await Promise.all(
  Array.from({ length: Number(concurrencyText) }, async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const response = await request(next, { dispatcher: agent });
      await response.body.arrayBuffer();
      pages += 1;
    }
  }),
);
await agent.close();
process.stdout.write(`${JSON.stringify({ pages })}\n`);
