import { z } from 'zod';
import { CRAWL_SCOPES } from '../types/crawl';
import { validateProfile } from '../url/profiles';
import { validateTldConfig } from '../url/tld-config';
import { MAX_DOMAIN_LIST, MAX_HOST_CHARS, MAX_SEED_CHARS, MAX_SEED_LIST_CHARS, MAX_SEEDS } from './limits';
import { urlQuerySchema, viewRequestSchemas } from './view-schemas';

/** A zod schema that defers to one of shared/url's validators (one definition of "valid"). */
function validated<T>(validate: (value: unknown) => { ok: true; value: T } | { ok: false; error: { message: string } }) {
  return z.custom<T>((value) => validate(value).ok, { error: (issue) => { const r = validate(issue.input); return r.ok ? 'invalid' : r.error.message; } });
}

/**
 * Request payload schemas, one per channel. Main validates every payload against these before
 * a handler sees it; a payload that fails gets `{ ok: false, error: { code: 'INVALID_PAYLOAD' } }`.
 */

const hostOverrideSchema = z.object({
  host: z.string().min(1).max(253),
  address: z.string().min(1).max(64),
  port: z.number().int().min(1).max(65_535).optional(),
});

/** Partial crawl settings as a client may send them; omitted fields take the defaults. */
export const crawlSettingsInputSchema = z
  .object({
    threads: z.number().int().min(1).max(256),
    maxPages: z.number().int().min(0),
    maxDepth: z.number().int().min(0),
    scope: z.enum(CRAWL_SCOPES as [string, ...string[]]),
    minDelayMs: z.number().int().min(0).max(3_600_000),
    maxDelayMs: z.number().int().min(0).max(3_600_000),
    delayFactor: z.number().min(0).max(100),
    maxInFlightPerHost: z.number().int().min(1).max(64),
    userAgent: z.string().min(1).max(512),
    obeyRobots: z.boolean(),
    timeoutMs: z.number().int().min(100).max(600_000),
    maxBodyBytes: z.number().int().min(1024).max(1024 * 1024 * 1024),
    maxRedirects: z.number().int().min(0).max(50),
    hostOverrides: z.array(hostOverrideSchema).max(1000),
    closedResolver: z.boolean(),
    robotsCacheTtlMs: z.number().int().min(0).max(30 * 24 * 3_600_000),
    robotsRetryDelayMs: z.number().int().min(0).max(3_600_000),
    maxCrawlDelayMs: z.number().int().min(0).max(3_600_000),
    maxRetries: z.number().int().min(0).max(10),
    allowedProtocols: z.array(z.string().regex(/^[a-z][a-z0-9+.-]*$/)).min(1).max(16),
    maxUrlLength: z.number().int().min(16).max(65_536),
    followQueryStrings: z.boolean(),
    ignoredExtensions: z.string().max(10_000).regex(/^[a-z0-9|]*$/, 'lowercase extensions separated by |'),
    obeyNofollow: z.boolean(),
    includeDomains: z.array(z.string().min(1).max(MAX_HOST_CHARS)).max(MAX_DOMAIN_LIST),
    excludeDomains: z.array(z.string().min(1).max(MAX_HOST_CHARS)).max(MAX_DOMAIN_LIST),
    normalizationProfile: validated(validateProfile),
    tld: validated(validateTldConfig),
    nearDuplicateThreshold: z.number().min(0.5).max(1),
    pageTextChars: z.number().int().min(0).max(1_000_000),
  })
  .partial()
  .strict();

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
    })
    .strict(),
  'crawl.stop': crawlIdSchema,
  'crawl.list': emptySchema,
  'crawl.getProgress': crawlIdSchema,
  'frontier.queryUrls': urlQuerySchema,
  ...viewRequestSchemas,
} as const;
