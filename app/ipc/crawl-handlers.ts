import type { IpcHandlers } from '../../shared/ipc/contract';
import type { CrawlSettings } from '../../shared/types/crawl';
import { maskRequestRules, validateRequestRules, type RequestRuleInput, type RequestRuleSecrets } from '../../shared/types/request-rules';
import { CodedError } from '../../shared/types/result';
import { keepRequestSecrets, requestSecretsToResume, secretsFileOf } from '../services/request-secrets';
import type { HandlerContext } from './handlers';

/**
 * A `crawl.start`'s request rules checked by the CLI's own checks (shared/types/request-rules.ts).
 * @returns the rules with their secrets, as the fetcher applies them ([] when none were sent)
 * @throws CodedError INVALID_REQUEST_RULE naming the rule and field (never a secret value)
 */
export function readStartRequestRules(input: readonly RequestRuleInput[] | undefined): RequestRuleSecrets[] {
  const checked = validateRequestRules(input ?? []);
  if (!checked.ok) throw new CodedError(checked.error.code, checked.error.message);
  return checked.value;
}

/** The run options that carry a crawl's request rules (none when it has none). */
const withRules = (rules: readonly RequestRuleSecrets[]) => (rules.length > 0 ? { requestRules: rules } : {});

type CrawlChannels =
  | 'crawl.start'
  | 'crawl.stop'
  | 'crawl.list'
  | 'crawl.getProgress'
  | 'crawl.pause'
  | 'crawl.resume'
  | 'crawl.open'
  | 'crawl.applySettings'
  | 'crawl.getRecovery'
  | 'crawl.discardRecovery';

/**
 * Crawl sessions: start, pause, resume, stop, open, apply settings now, and the after-crash offer.
 * A start's request rules (headers, cookie, Basic auth, proxy per host, with their secrets) are
 * checked by the CLI's checks (INVALID_REQUEST_RULE), kept beside the database
 * (app/services/request-secrets.ts; in memory for a memory database) and stored in the crawl's
 * settings masked, so no answer carries a secret; resume and apply settings read them back and
 * refuse with REQUEST_SECRETS_MISSING when they are gone, rather than crawl without them.
 */
export function crawlHandlers(context: HandlerContext): Pick<IpcHandlers, CrawlChannels> {
  return {
    'crawl.start': async ({ seeds, settings, requestRules }) => {
      const { crawls, settings: saved, db } = context.store();
      const rules = readStartRequestRules(requestRules);
      // The settings name the rules masked (the secrets are kept apart); a client's own
      // settings.requestRules, which carry no secrets, are replaced.
      const input: Partial<CrawlSettings> = { ...(settings as Partial<CrawlSettings> | undefined), requestRules: maskRequestRules(rules) };
      const { crawlId } = crawls.start(seeds, input, withRules(rules));
      if (rules.length > 0) {
        try {
          // Beside the database for a resume (never in it); a memory database keeps them in memory.
          keepRequestSecrets(db, crawlId, rules);
        } catch (error) {
          // A crawl whose secrets are not kept could not be resumed: stop it rather than leave it half set up.
          crawls.stop(crawlId);
          await crawls.whenStopped(crawlId);
          if (error instanceof CodedError) throw new CodedError(error.code, `Crawl ${crawlId} was stopped: ${error.message}`);
          throw new CodedError('REQUEST_SECRETS_UNWRITABLE', `Crawl ${crawlId} was stopped: its request settings' secrets cannot be kept in ${secretsFileOf(db.name)} (${(error as Error).message})`);
        }
      }
      saved.saveLastOpenCrawl(crawlId);
      return { crawlId };
    },
    'crawl.stop': async ({ crawlId }) => ({ stopped: context.store().crawls.stop(crawlId) }),
    'crawl.pause': async ({ crawlId }) => ({ paused: context.store().crawls.pause(crawlId) }),
    'crawl.resume': async ({ crawlId }) => {
      const { crawls, settings } = context.store();
      // A crawl pausing or stopping already reports that status while its in-flight fetches
      // finish: wait for them (a click on Resume right after Pause must not fail).
      if (crawls.isRunning(crawlId)) {
        if (crawls.progress(crawlId).status === 'running') throw new CodedError('CRAWL_RUNNING', `Crawl ${crawlId} is already running`);
        await crawls.whenStopped(crawlId);
      }
      // CrawlService sends the secrets kept at the start; a crawl whose rules' secrets are gone is not resumed (REQUEST_SECRETS_MISSING).
      crawls.resume(crawlId);
      context.recovery.dismiss(crawlId);
      settings.saveLastOpenCrawl(crawlId);
      return { crawlId };
    },
    'crawl.list': async () => context.store().crawls.list(),
    'crawl.getProgress': async ({ crawlId }) => context.store().crawls.progress(crawlId),
    'crawl.open': async ({ crawlId }) => {
      const { crawls, settings } = context.store();
      const repository = crawls.repositoryForQueries;
      const summary = repository.getCrawl(crawlId);
      settings.saveLastOpenCrawl(crawlId);
      return {
        summary,
        running: crawls.isRunning(crawlId),
        refusedByRule: repository.refusalCounts(crawlId),
        rateHistory: crawls.rateHistory(crawlId),
        seedFailures: crawls.seedFailures(crawlId),
      };
    },
    'crawl.applySettings': async ({ crawlId, settings }) => {
      const { crawls, db } = context.store();
      // Checked before the crawl is stopped: a crawl whose secrets are gone keeps running with them.
      const rules = requestSecretsToResume(db, crawlId, crawls.repositoryForQueries.getCrawl(crawlId).settings.requestRules);
      if (crawls.isRunning(crawlId)) {
        crawls.stop(crawlId);
        await crawls.whenStopped(crawlId);
      }
      crawls.resume(crawlId, settings, withRules(rules));
      return { crawlId };
    },
    'crawl.getRecovery': async () => {
      const { crawls } = context.store();
      return context.recovery.offer(crawls.repositoryForQueries, (crawlId) => crawls.isRunning(crawlId));
    },
    'crawl.discardRecovery': async ({ crawlId }) => ({ discarded: context.recovery.dismiss(crawlId) }),
  };
}
