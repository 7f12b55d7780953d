import { once } from 'node:events';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CodedError } from '../../shared/types/result';
import { listCheckpoints, openDatabase, type ReadableDB } from '../../engine';
import { CHANGE_KIND_LABELS, CHANGE_KINDS, diffCrawls, newestCrawlIds, type ChangeKind, type CrawlChange, type CrawlDiff, type UrlSnapshot } from '../../app/services/crawl-diff';
import { failLine, failWith, intFlag, parseErrorLine, type CommandIo } from '../io';

export const DIFF_USAGE = `Usage: crawlbench diff --db BEFORE.db [--crawl ID] [--checkpoint NAME] [--db AFTER.db] [--crawl ID] [--checkpoint NAME] [--json] [--limit N]

Compares two crawls: the first named is "before", the second "after". Each --crawl names a crawl of
the --db before it; a second --crawl after a --db that has one already names a second crawl of that
same file. Without --crawl a side is its file's newest crawl. --checkpoint NAME makes a side the
crawl as checkpoint NAME of its --db kept it (crawlbench checkpoints); alone, it is compared with
the same crawl now.
  crawlbench diff --db site.db                             the two newest crawls of site.db
  crawlbench diff --db site.db --crawl 3                   crawl 3 against the newest crawl of site.db
  crawlbench diff --db site.db --crawl 3 --crawl 5         crawl 3 against crawl 5 of site.db
  crawlbench diff --db old.db --db new.db                  the newest crawl of each file
  crawlbench diff --db old.db --crawl 1 --db new.db --crawl 2
  crawlbench diff --db site.db --checkpoint before-fix     the crawl at checkpoint before-fix against it now

URLs are joined on their normalized key, so spellings of one URL (tracking parameters, host case,
fragments, directory indexes: whatever the crawl's normalization profile folds) make no phantom add
or remove. When the two crawls key URLs differently (another profile, or other DUST rules), the
after crawl's URLs are keyed again under the before crawl's identity, and the report says so.
Only settled URLs take part (fetched, or failed); queued, held and robots-blocked ones do not.

Kinds of change (a URL can have several):
${CHANGE_KINDS.map((kind) => `  ${kind.padEnd(14)}${CHANGE_KIND_LABELS[kind]}`).join('\n')}

Output: the count per kind, then up to --limit URLs per kind (default 20, 0 for counts only) on
stdout; with --json one JSON object instead: { before: {db, crawlId, …}, after: {db, crawlId, …},
rekeyed, counts, changes: [{ kind, url, normalizedKey, before, after, similarity? }] } with every
change. Both databases are opened read-only.`;

const DEFAULT_LIMIT = 20;

/** One side as the flags name it: a file, a crawl of it (newest when absent), and a checkpoint of it. */
interface SideFlag {
  file: string;
  crawlId: number | undefined;
  /** A checkpoint of `file`: the side is the crawl as that checkpoint's snapshot holds it. */
  checkpoint?: string;
}

/**
 * `crawlbench diff`: compares two crawls (app/services/crawl-diff.ts) and prints the count of each
 * kind of change and up to `--limit` URLs per kind, or with `--json` one JSON object with every
 * change. Sides are named by `--db` and `--crawl` in order (see {@link DIFF_USAGE}); databases are
 * opened read-only, a file named twice once.
 * @returns 0 (changes or not); 2 for a bad or missing flag (INVALID_FLAG, MISSING_FLAG), a missing
 *   or foreign database (DB_NOT_FOUND, NOT_A_CRAWL_DB, DB_OPEN_FAILED), no such crawl
 *   (CRAWL_NOT_FOUND) or checkpoint (CHECKPOINT_NOT_FOUND), or fewer than two crawls to compare
 *   (NOTHING_TO_COMPARE)
 */
export async function diffCommand(argv: string[], io: CommandIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { db: { type: 'string', multiple: true }, crawl: { type: 'string', multiple: true }, checkpoint: { type: 'string', multiple: true }, json: { type: 'boolean' }, limit: { type: 'string' } },
      tokens: true,
    });
  } catch (error) {
    return failLine(io, parseErrorLine(error, argv, 'diff'));
  }
  const opened = new Map<string, ReadableDB>();
  try {
    const limit = intFlag('limit', parsed.values.limit, 0) ?? DEFAULT_LIMIT;
    const open = (file: string): ReadableDB => {
      const resolved = path.resolve(file);
      let db = opened.get(resolved);
      if (!db) {
        db = openDatabase(resolved, { readonly: true });
        opened.set(resolved, db);
      }
      return db;
    };
    const flags = checkpointSides(sideFlags(parsed.tokens), open);
    const [before, after] = chooseCrawls(flags, open);
    const diff = diffCrawls({ db: open(before.file), crawlId: before.crawlId }, { db: open(after.file), crawlId: after.crawlId });
    const names = { before: path.resolve(before.file), after: path.resolve(after.file) };
    if (parsed.values.json) await writeJson(io.stdout, diff, names);
    else io.stdout.write(summaryText(diff, names, limit));
    return 0;
  } catch (error) {
    return failWith(io, error);
  } finally {
    for (const db of opened.values()) db.close();
  }
}

/**
 * The sides named by the flags, in order: each `--db` starts a side; a `--crawl` names the crawl
 * of the side before it, or starts a second side on the same file when that side has one.
 * @throws CodedError MISSING_FLAG (no --db, or a --crawl before any), INVALID_FLAG (more than two sides, a bad id)
 */
function sideFlags(tokens: readonly { kind: string; name?: string; value?: string | undefined }[]): SideFlag[] {
  const sides: SideFlag[] = [];
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    if (token.name === 'db') sides.push({ file: token.value!, crawlId: undefined });
    if (token.name === 'crawl') {
      const crawlId = intFlag('crawl', token.value, 1)!;
      const last = sides.at(-1);
      if (!last) throw new CodedError('MISSING_FLAG', '--crawl names a crawl of the --db before it: give --db FILE first (see crawlbench diff --help)');
      if (last.crawlId === undefined) last.crawlId = crawlId;
      else sides.push({ file: last.file, crawlId });
    }
    if (token.name === 'checkpoint') {
      const last = sides.at(-1);
      if (!last) throw new CodedError('MISSING_FLAG', '--checkpoint names a checkpoint of the --db before it: give --db FILE first (see crawlbench diff --help)');
      if (last.checkpoint === undefined) last.checkpoint = token.value!;
      else sides.push({ file: last.file, crawlId: undefined, checkpoint: token.value! });
    }
  }
  if (sides.length === 0) throw new CodedError('MISSING_FLAG', '--db FILE is required (see crawlbench diff --help)');
  if (sides.length > 2) throw new CodedError('INVALID_FLAG', `diff compares two crawls, and the flags name ${sides.length} (see crawlbench diff --help)`);
  return sides;
}

/**
 * The sides with their checkpoints resolved: a side naming checkpoint NAME becomes that
 * checkpoint's snapshot file and crawl; a lone checkpoint side is compared with its crawl in its
 * --db now (a second side added).
 * @throws CodedError CHECKPOINT_NOT_FOUND (no such checkpoint of that file, or of that --crawl),
 *   INVALID_FLAG (the name is a checkpoint of several crawls and no --crawl says which)
 */
function checkpointSides(sides: readonly SideFlag[], open: (file: string) => ReadableDB): SideFlag[] {
  const resolved = sides.map((side) => {
    if (side.checkpoint === undefined) return side;
    const matches = listCheckpoints(open(side.file)).filter((info) => info.name === side.checkpoint && (side.crawlId === undefined || info.crawlId === side.crawlId));
    if (matches.length === 0) {
      throw new CodedError('CHECKPOINT_NOT_FOUND', `${path.resolve(side.file)} has no checkpoint "${side.checkpoint}"${side.crawlId === undefined ? '' : ` of crawl ${side.crawlId}`}: list them with crawlbench checkpoints --db ${side.file}`);
    }
    if (matches.length > 1) throw new CodedError('INVALID_FLAG', `Crawls ${matches.map((info) => info.crawlId).join(', ')} each have a checkpoint "${side.checkpoint}": say which with --crawl ID`);
    return { file: matches[0]!.file, crawlId: matches[0]!.crawlId, origin: side.file };
  });
  const only = resolved[0];
  if (resolved.length === 1 && only && 'origin' in only) return [only, { file: only.origin, crawlId: only.crawlId }];
  return resolved;
}

/**
 * The two crawls to compare: each named side's crawl, its file's newest when not named; with one
 * side, the after crawl is the file's newest (the two newest when no crawl is named).
 * @throws CodedError CRAWL_NOT_FOUND (a file without crawls), NOTHING_TO_COMPARE (one side only, and its file has no second crawl)
 */
function chooseCrawls(sides: readonly SideFlag[], open: (file: string) => ReadableDB): [{ file: string; crawlId: number }, { file: string; crawlId: number }] {
  const newest = (file: string, count: number): number[] => {
    const ids = newestCrawlIds(open(file), count);
    if (ids.length === 0) throw new CodedError('CRAWL_NOT_FOUND', `No crawl in ${path.resolve(file)}`);
    return ids;
  };
  const first = sides[0]!;
  const second = sides[1];
  if (second) {
    return [
      { file: first.file, crawlId: first.crawlId ?? newest(first.file, 1)[0]! },
      { file: second.file, crawlId: second.crawlId ?? newest(second.file, 1)[0]! },
    ];
  }
  if (first.crawlId !== undefined) {
    const latest = newest(first.file, 1)[0]!;
    if (latest === first.crawlId) {
      throw new CodedError('NOTHING_TO_COMPARE', `Crawl ${latest} is the newest crawl of ${path.resolve(first.file)}: name the crawl to compare it with (--crawl ID --crawl ID), or a second --db`);
    }
    return [
      { file: first.file, crawlId: first.crawlId },
      { file: first.file, crawlId: latest },
    ];
  }
  const [latest, previous] = newest(first.file, 2);
  if (previous === undefined) throw new CodedError('NOTHING_TO_COMPARE', `${path.resolve(first.file)} holds one crawl (${latest}): crawl again into it, or give a second --db FILE`);
  return [
    { file: first.file, crawlId: previous },
    { file: first.file, crawlId: latest! },
  ];
}

/** Writes the diff as one JSON object, the changes a thousand at a time (waiting for the stream to drain). */
async function writeJson(stream: NodeJS.WritableStream, diff: CrawlDiff, names: { before: string; after: string }): Promise<void> {
  const { changes, before, after, ...rest } = diff;
  const head = JSON.stringify({ before: { db: names.before, ...before }, after: { db: names.after, ...after }, ...rest });
  const write = async (text: string): Promise<void> => {
    if (!stream.write(text)) await once(stream, 'drain');
  };
  await write(`${head.slice(0, -1)},"changes":[`);
  for (let at = 0; at < changes.length; at += 1000) {
    await write((at > 0 ? ',' : '') + changes.slice(at, at + 1000).map((item) => JSON.stringify(item)).join(','));
  }
  await write(']}\n');
}

/** The human report: the crawls, the count of each kind, then up to `limit` URLs per kind. */
export function summaryText(diff: CrawlDiff, names: { before: string; after: string }, limit: number): string {
  const lines: string[] = [];
  const side = (label: string, file: string, info: CrawlDiff['before']): string =>
    `${label} crawl ${info.crawlId} of ${file} (${info.urls} settled URLs, ${new Date(info.createdAtMs).toISOString()}, profile ${info.profile}${info.dustRules > 0 ? `, ${info.dustRules} DUST rules` : ''})`;
  lines.push(side('before:', names.before, diff.before), side('after: ', names.after, diff.after));
  lines.push(
    diff.rekeyed
      ? `joined on the normalized key: the crawls key URLs differently (profile ${diff.before.profile} / ${diff.after.profile}, DUST rules ${diff.before.dustRules} / ${diff.after.dustRules}), so the after crawl's URLs were keyed again under the before crawl's identity${diff.foldedByRekey > 0 ? ` (${diff.foldedByRekey} folded into another URL)` : ''}`
      : `joined on the normalized key (${diff.common} URLs in both)`,
  );
  lines.push('');
  const total = CHANGE_KINDS.reduce((sum, kind) => sum + diff.counts[kind], 0);
  lines.push(total === 0 ? 'no changes' : `${total} changes:`);
  for (const kind of CHANGE_KINDS) lines.push(`  ${kind.padEnd(14)}${String(diff.counts[kind]).padStart(7)}  ${CHANGE_KIND_LABELS[kind]}`);
  if (limit > 0) {
    const byKind = new Map<ChangeKind, CrawlChange[]>();
    for (const item of diff.changes) {
      const list = byKind.get(item.kind) ?? [];
      if (list.length < limit) list.push(item);
      byKind.set(item.kind, list);
    }
    for (const kind of CHANGE_KINDS) {
      const list = byKind.get(kind);
      if (!list) continue;
      lines.push('', `${kind} (${diff.counts[kind]}):`);
      for (const item of list) lines.push(`  ${item.url}  ${changeDetail(item)}`);
      if (diff.counts[kind] > list.length) lines.push(`  … and ${diff.counts[kind] - list.length} more (--json lists every change)`);
    }
  }
  return `${lines.join('\n')}\n`;
}

const shownStatus = (row: UrlSnapshot | null): string => (row?.status ?? 'no answer').toString();
const shownTitle = (row: UrlSnapshot | null): string => (row?.title === null || row?.title === undefined ? '(no title)' : JSON.stringify(row.title));
const shownError = (row: UrlSnapshot | null): string => row?.errorCode ?? (row?.status !== null && row?.status !== undefined ? `HTTP_${row.status}` : 'error');

/** What changed of one URL, in one line. */
function changeDetail(item: CrawlChange): string {
  const { before, after } = item;
  switch (item.kind) {
    case 'added':
      return `${shownStatus(after)} ${shownTitle(after)}`;
    case 'removed':
      return `${shownStatus(before)} ${shownTitle(before)}`;
    case 'status':
      return `${shownStatus(before)} → ${shownStatus(after)}`;
    case 'title':
      return `${shownTitle(before)} → ${shownTitle(after)}`;
    case 'content':
    case 'near-changed':
      return item.similarity === null || item.similarity === undefined ? 'similarity unknown (a page has no MinHash sketch)' : `similarity ${item.similarity.toFixed(2)}`;
    case 'redirect':
      return `${before?.location ?? 'no redirect'} → ${after?.location ?? 'no redirect'}`;
    case 'new-error':
      return before ? `${shownError(after)} (was ${shownStatus(before)})` : `${shownError(after)} (new URL)`;
    default: {
      const exhaustive: never = item.kind;
      return exhaustive;
    }
  }
}
