import { parseArgs } from 'node:util';
import { openDatabase } from '../../engine';
import { CodedError } from '../../shared/types/result';
import { parseStoreArg } from '../store-arg';
import { snapshotToTempFile, type TempSnapshot } from '../store-snapshot';
import { DustService, type DustReport } from '../../app/services/dust-service';
import { failLine, failWith, intFlag, parseErrorLine, type CommandIo } from '../io';

export const DUST_USAGE = 'Usage: crawlbench dust --db FILE|--store URL [--crawl ID] [--min-support N] [--json] [--accept N | --undo RULE_ID | --rules]';

function writeReport(io: CommandIo, report: DustReport, json: boolean): void {
  if (json) {
    for (const proposal of report.proposals) io.stdout.write(`${JSON.stringify(proposal)}\n`);
    return;
  }
  const { stats } = report;
  const capped = [stats.pairsCapped ? 'pair cap met' : '', stats.candidatesCapped ? 'candidate cap met' : '', report.pagesTruncated ? 'page cap met' : ''].filter(Boolean);
  io.stdout.write(
    `crawl ${report.crawlId}: ${stats.pages} fetched pages, ${stats.buckets} buckets of duplicates (${stats.bucketsSkipped} too large, skipped), ${stats.pairs} URL pairs aligned, ${stats.candidates} candidate rules${capped.length ? ` (${capped.join(', ')})` : ''}\n`,
  );
  if (report.proposals.length === 0) {
    io.stdout.write('no DUST rules proposed\n');
    return;
  }
  io.stdout.write(`${'#'.padStart(3)}${'support'.padStart(9)}${'confirmed'.padStart(11)}${'refuted'.padStart(9)}${'confidence'.padStart(12)}  rule\n`);
  for (const p of report.proposals) {
    io.stdout.write(`${String(p.number).padStart(3)}${String(p.support).padStart(9)}${String(p.confirmed).padStart(11)}${String(p.refuted).padStart(9)}${p.confidence.toFixed(2).padStart(12)}  ${p.description}${p.accepted ? '  (accepted)' : ''}\n`);
    for (const example of p.examples.slice(0, 2)) io.stdout.write(`${' '.repeat(46)}e.g. ${example.from} → ${example.to}\n`);
  }
}

/**
 * `crawlbench dust`: mines DUST rules (different URLs, same content) from a crawl's fetched pages
 * and lists them numbered, with support (distinct contents), confirmations and refutations on
 * fetched URLs, confidence and examples (shared/url/dust/mine.ts). `--accept N` accepts proposal N
 * into the crawl's normalization and re-keys its queued frontier (merged URLs, fetches saved);
 * `--rules` lists the accepted rules; `--undo RULE_ID` takes the newest back. The crawl must not
 * be running (pause or stop it; `resume` then applies the rules). Default crawl: the newest.
 * @returns 0, or 2 with one line on stderr (bad flag, CRAWL_NOT_FOUND, DB_BUSY, DUST_* codes)
 */
export async function dustCommand(argv: string[], io: CommandIo): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { db: { type: 'string' }, store: { type: 'string' }, crawl: { type: 'string' }, 'min-support': { type: 'string' }, json: { type: 'boolean' }, accept: { type: 'string' }, undo: { type: 'string' }, rules: { type: 'boolean' } },
    }));
  } catch (error) {
    return failLine(io, parseErrorLine(error, argv, 'dust'));
  }
  if (values.db === undefined && values.store === undefined) return failLine(io, `MISSING_FLAG: --db FILE or --store URL is required (see crawlbench dust --help)`);
  if ([values.accept !== undefined, values.undo !== undefined, values.rules === true].filter(Boolean).length > 1) {
    return failLine(io, `INVALID_FLAG: --accept, --undo and --rules go one at a time (see crawlbench dust --help)`);
  }
  let db;
  let snapshot: TempSnapshot | null = null;
  try {
    let crawlId = intFlag('crawl', values.crawl, 1);
    const minSupport = intFlag('min-support', values['min-support'], 1);
    const accept = intFlag('accept', values.accept, 1);
    const undo = intFlag('undo', values.undo, 1);
    const store = parseStoreArg(values)!;
    if (store.kind === 'postgres') {
      // Mining reads a snapshot of the crawl; accepting or undoing a rule would have to re-key PostgreSQL's frontier.
      if (accept !== undefined || undo !== undefined) {
        throw new CodedError('STORE_UNSUPPORTED', `dust --accept and --undo do not work on a PostgreSQL crawl yet: copy it with crawlbench checkpoints --store URL --crawl ID --to FILE and accept the rule there (crawlbench dust --db FILE --accept N)`);
      }
      snapshot = await snapshotToTempFile(store.url, crawlId);
      crawlId = snapshot.crawlIds[0];
    }
    // Accepted rules live in the crawl's database (migration 0020): a read-write open, never a new file.
    db = openDatabase(snapshot?.file ?? (store.kind === 'sqlite' ? store.file : ''), { create: false });
    crawlId ??= (db.prepare(`SELECT MAX(id) FROM crawls`).pluck().get() as number | null) ?? 0;
    const dust = new DustService(db);
    const request = minSupport === undefined ? {} : { minSupport };
    if (accept !== undefined) {
      const { proposal, outcome } = await dust.acceptProposal(crawlId, accept, request);
      if (values.json) io.stdout.write(`${JSON.stringify({ rule: proposal.rule, description: proposal.description, ...outcome })}\n`);
      else {
        io.stdout.write(
          `accepted ${proposal.description} as rule ${outcome.ruleId} of crawl ${crawlId}: ${outcome.merged} queued URLs merged (${outcome.fetchesSaved} fetches saved), ${outcome.rekeyed} URLs re-keyed, ${outcome.fetchedDuplicates} fetched duplicates found\n`,
        );
        for (const example of outcome.examples) io.stdout.write(`  ${example.from} → ${example.into}\n`);
        io.stdout.write(`resume the crawl to go on with the rule (crawlbench resume); undo with --undo ${outcome.ruleId}\n`);
      }
      return 0;
    }
    if (undo !== undefined) {
      const undone = dust.undo(crawlId, undo);
      if (values.json) io.stdout.write(`${JSON.stringify({ ruleId: undo, ...undone })}\n`);
      else io.stdout.write(`undid rule ${undo} of crawl ${crawlId}: ${undone.restored} URLs restored, ${undone.rekeyed} URLs given back their key or depth\n`);
      return 0;
    }
    const report = dust.mine(crawlId, request);
    if (values.rules) {
      if (values.json) for (const rule of report.rules) io.stdout.write(`${JSON.stringify(rule)}\n`);
      else if (report.rules.length === 0) io.stdout.write(`crawl ${crawlId} has no accepted rules\n`);
      else {
        for (const rule of report.rules) {
          const state = rule.undoneAtMs === null ? 'in force' : `undone ${new Date(rule.undoneAtMs).toISOString()}`;
          io.stdout.write(`${String(rule.id).padStart(3)}  ${rule.description}  (${rule.source}, accepted ${new Date(rule.acceptedAtMs).toISOString()}, ${state}): ${rule.merged} merged, ${rule.rekeyed} re-keyed\n`);
        }
      }
      return 0;
    }
    writeReport(io, report, values.json === true);
    return 0;
  } catch (error) {
    return failWith(io, error);
  } finally {
    db?.close();
    snapshot?.remove();
  }
}
