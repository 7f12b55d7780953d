import { z } from 'zod';
import { crawlSettingsInputSchema as crawlSettingsInput } from '../types/crawl-settings';
import {
  MAX_HEADER_NAME_CHARS,
  MAX_PASSWORD_CHARS,
  MAX_PROXY_CHARS,
  MAX_REQUEST_RULES,
  MAX_REQUEST_RULES_CHARS,
  MAX_REQUEST_VALUE_CHARS,
  MAX_RULE_HEADERS,
  MAX_RULE_HOST_CHARS,
  MAX_USERNAME_CHARS,
  requestRuleChars,
} from '../types/request-rules';
import { MAX_SEED_CHARS, MAX_SEED_LIST_CHARS, MAX_SEEDS } from './limits';
import { compareRequestSchemas } from './compare-schemas';
import { dustRequestSchemas } from './dust-schemas';
import { extractionRequestSchemas } from './extraction-schemas';
import { overviewRequestSchemas } from './overview-schemas';
import { pagesQuerySchema } from './pages-schema';
import { urlQuerySchema, viewRequestSchemas } from './view-schemas';

/**
 * Request payload schemas, one per channel. Main validates every payload against these before
 * a handler sees it; a payload that fails gets `{ ok: false, error: { code: 'INVALID_PAYLOAD' } }`.
 */

/**
 * Partial crawl settings as a client may send them; omitted fields take the defaults. Each field
 * is its setting's own schema (shared/types/crawl-settings.ts), as the CLI and the forms use.
 */
export const crawlSettingsInputSchema = crawlSettingsInput;

/**
 * One request rule with its secrets as `crawl.start` carries it (shared/types/request-rules.ts
 * RequestRuleSecrets): the shape and the size bounds. The values themselves (host pattern, header
 * names, control characters, proxy scheme, …) are checked by the handler with the CLI's checks,
 * `validateRequestRules`, which refuses a bad one with INVALID_REQUEST_RULE naming the field.
 */
const requestRuleSecretsSchema = z
  .object({
    host: z.string().max(MAX_RULE_HOST_CHARS),
    headers: z
      .record(z.string().max(MAX_HEADER_NAME_CHARS), z.string().max(MAX_REQUEST_VALUE_CHARS))
      .refine((headers) => Object.keys(headers).length <= MAX_RULE_HEADERS, { message: `at most ${MAX_RULE_HEADERS} headers per rule` }),
    auth: z.object({ username: z.string().max(MAX_USERNAME_CHARS), password: z.string().max(MAX_PASSWORD_CHARS) }).strict().nullable(),
    cookie: z.string().max(MAX_REQUEST_VALUE_CHARS).nullable(),
    proxy: z.string().max(MAX_PROXY_CHARS).nullable(),
  })
  .strict();

/** `crawl.start`'s request rules: at most MAX_REQUEST_RULES, MAX_REQUEST_RULES_CHARS characters in all. */
export const requestRulesInputSchema = z
  .array(requestRuleSecretsSchema)
  .max(MAX_REQUEST_RULES)
  .refine((rules) => rules.reduce((sum, rule) => sum + requestRuleChars(rule), 0) <= MAX_REQUEST_RULES_CHARS, {
    message: `the request rules together may be at most ${MAX_REQUEST_RULES_CHARS} characters`,
  });

const crawlIdSchema = z.object({ crawlId: z.number().int().positive() }).strict();
const emptySchema = z.object({}).strict();

/** Request schemas keyed by channel; `satisfies` keeps the key set equal to IPC_CHANNELS. */
export const requestSchemas = {
  'app.getInfo': emptySchema,
  'crawl.start': z
    .object({
      seeds: z
        .array(z.string().min(1).max(MAX_SEED_CHARS))
        .min(1)
        .max(MAX_SEEDS)
        .refine((seeds) => seeds.reduce((chars, seed) => chars + seed.length, 0) <= MAX_SEED_LIST_CHARS, {
          message: `the seeds together may be at most ${MAX_SEED_LIST_CHARS} characters: split the list over several crawls`,
        }),
      settings: crawlSettingsInputSchema.optional(),
      /**
       * Headers, cookie, Basic auth and proxy per host pattern, with their secrets: kept beside the
       * database (never in it), the crawl's settings get them masked.
       */
      requestRules: requestRulesInputSchema.optional(),
    })
    .strict(),
  'crawl.stop': crawlIdSchema,
  'crawl.list': emptySchema,
  'crawl.getProgress': crawlIdSchema,
  'frontier.queryUrls': urlQuerySchema,
  'pages.query': pagesQuerySchema,
  ...viewRequestSchemas,
  ...overviewRequestSchemas,
  ...dustRequestSchemas,
  ...compareRequestSchemas,
  ...extractionRequestSchemas,
} as const;
