import { z } from 'zod';
import { crawlSettingsInputSchema as crawlSettingsInput } from '../types/crawl-settings';
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
  'pages.query': pagesQuerySchema,
  ...viewRequestSchemas,
  ...overviewRequestSchemas,
  ...dustRequestSchemas,
  ...compareRequestSchemas,
  ...extractionRequestSchemas,
} as const;
