/**
 * `--header`, `--auth`, `--cookie` and `--proxy` (issue 14 part 4) of `crawl` and `resume`: the
 * request rules with their secrets, read from the flags; the crawl's settings get them masked and
 * the secrets file beside the database keeps them (app/services/request-secrets.ts).
 */
import { addRequestFlag, type RequestRuleSecrets } from '../shared/types/request-rules';
import { CodedError } from '../shared/types/result';

/** The flags' parseArgs options. */
export const requestRuleFlags = {
  header: { type: 'string', multiple: true },
  auth: { type: 'string', multiple: true },
  cookie: { type: 'string', multiple: true },
  proxy: { type: 'string', multiple: true },
} as const;

/** The usage lines of the flags. */
export const REQUEST_RULE_USAGE = `  --header 'HOST=Name: value'   send a header to HOST (an exact host, or *.suffix for every host under it)
  --auth 'HOST=user:password'   HTTP Basic credentials for HOST (RFC 7617)
  --cookie 'HOST=a=1; b=2'      a Cookie header for HOST
  --proxy 'HOST=http://[user:pass@]proxy:port'   fetch HOST through an HTTP(S) proxy
                                (repeatable; values are kept in FILE.secrets.json beside --db, mode 0600,
                                never in the database: settings, exports and checkpoints show them masked)`;

/**
 * The rules the flags give, on top of `base` (a resumed crawl's kept ones).
 * @throws CodedError INVALID_REQUEST_RULE naming the flag
 */
export function requestRulesFromFlags(values: Record<string, unknown>, base: readonly RequestRuleSecrets[] = []): RequestRuleSecrets[] {
  let rules = [...base];
  for (const flag of ['header', 'auth', 'cookie', 'proxy'] as const) {
    for (const text of (values[flag] as string[] | undefined) ?? []) {
      const added = addRequestFlag(rules, flag, text);
      if (!added.ok) throw new CodedError(added.error.code, added.error.message);
      rules = added.value;
    }
  }
  return rules;
}

/** True when any request-rule flag was given. */
export function hasRequestFlags(values: Record<string, unknown>): boolean {
  return ['header', 'auth', 'cookie', 'proxy'].some((flag) => ((values[flag] as string[] | undefined) ?? []).length > 0);
}
