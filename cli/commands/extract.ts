import { parseArgs } from 'node:util';
import { openDatabase } from '../../engine';
import { rerunExtractors } from '../../app/services/extraction-rerun';
import { parseExtractor, type Extractor } from '../../shared/types/extraction';
import { CodedError } from '../../shared/types/result';
import { failLine, failWith, intFlag, parseErrorLine, type CommandIo } from '../io';

export const EXTRACT_USAGE = `Usage: crawlbench extract --db FILE [--crawl ID] --extract NAME[:first|all|count]=KIND:EXPR... [--json]

Runs custom extractors over the crawl's stored page bodies, without fetching anything, and
stores their values in place of the old ones (they are the crawl's extractors from then on):
  --extract price=css:.price               the text of the first element a CSS selector matches
  --extract image=css:img.hero@src         an attribute instead of the text
  --extract links:count=css:a[href]        how many elements match (:all gives every value)
  --extract sku=regex:SKU-([0-9]+)         a match in the HTML source (its first group), linear-time
  --extract price=schema:Product.offers.price   a schema.org property from JSON-LD or microdata
Give --extract once per extractor; with none, the crawl's extractors are dropped.`;

/**
 * \`crawlbench extract\`: re-runs custom extractors over stored bodies (issue 14 part 2). Prints
 * progress to stderr and, with --json, one line on stdout:
 * \`{"crawlId":N,"pages":N,"skipped":N,"ms":N,"extractors":["name",…]}\`.
 * @returns 0; 2 for a bad flag or extractor (INVALID_EXTRACTOR, before anything is written), no
 *   stored bodies, a busy database (a crawl of it runs); 3 when the disk refused the writes
 */
export async function extractCommand(argv: string[], io: CommandIo): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { db: { type: 'string' }, crawl: { type: 'string' }, extract: { type: 'string', multiple: true }, json: { type: 'boolean' } } }));
  } catch (error) {
    return failLine(io, parseErrorLine(error, argv, 'extract'));
  }
  if (values.db === undefined) return failLine(io, `MISSING_FLAG: --db FILE is required (see crawlbench extract --help)`);
  let extractors: Extractor[];
  let requested: number | undefined;
  try {
    requested = intFlag('crawl', values.crawl, 1);
    extractors = (values.extract ?? []).map((text) => {
      const parsed = parseExtractor(text);
      if (!parsed.ok) throw new CodedError(parsed.error.code, `--extract ${parsed.error.message}`);
      return parsed.value;
    });
  } catch (error) {
    return failWith(io, error);
  }
  let db;
  try {
    db = openDatabase(values.db, { create: false });
    const crawlId = requested ?? (db.prepare(`SELECT MAX(id) FROM crawls`).pluck().get() as number | null);
    if (!crawlId) throw new CodedError('CRAWL_NOT_FOUND', `No crawl in ${values.db}`);
    let lastShown = 0;
    const result = rerunExtractors(db, crawlId, extractors, (done, total) => {
      const now = performance.now();
      if (now - lastShown < 1000 && done < total) return;
      lastShown = now;
      io.stderr.write(`extract: ${done}/${total} stored bodies (${Math.round((100 * done) / Math.max(total, 1))}%)\n`);
    });
    io.stderr.write(`extracted ${extractors.length} value${extractors.length === 1 ? '' : 's'} from ${result.pages} pages of crawl ${crawlId} in ${(result.ms / 1000).toFixed(2)} s, no fetch (${result.skipped} stored bodies were not HTML)\n`);
    if (values.json) io.stdout.write(`${JSON.stringify({ crawlId, pages: result.pages, skipped: result.skipped, ms: result.ms, extractors: extractors.map((e) => e.name) })}\n`);
    return 0;
  } catch (error) {
    return failWith(io, error);
  } finally {
    db?.close();
  }
}
