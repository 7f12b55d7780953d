import { z } from 'zod';
import { INDEXABILITY, PAGE_COLUMNS, STATUS_FILTERS } from '../types/pages';
import { SITEMAP_FILTERS } from '../types/sitemaps';

/** Longest "URL contains" text or regular expression (characters). The engine refuses a regex over 1,000 (INVALID_URL_REGEX). */
const MAX_URL_FILTER_CHARS = 2048;

/** A duration or an epoch time in milliseconds. */
const millis = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** The Pages table's filter (shared/types/pages.ts PagesFilter), every field bounded. */
export const pagesFilterSchema = z
  .object({
    status: z.enum(STATUS_FILTERS).optional(),
    urlContains: z.string().max(MAX_URL_FILTER_CHARS).optional(),
    urlRegex: z.boolean().optional(),
    host: z.string().max(253).optional(),
    depth: z.number().int().min(0).max(1_000_000).optional(),
    contentType: z.string().max(255).optional(),
    indexability: z.enum(INDEXABILITY).optional(),
    pathPrefix: z.string().startsWith('/').max(MAX_URL_FILTER_CHARS).optional(),
    responseMsAtLeast: millis.optional(),
    responseMsBelow: millis.optional(),
    fetchedAtMsAtLeast: millis.optional(),
    fetchedAtMsBelow: millis.optional(),
    depthAtLeast: z.number().int().min(0).max(1_000_000).optional(),
    withoutValue: z.enum(['contentType', 'indexability']).optional(),
    sitemap: z.enum(SITEMAP_FILTERS).optional(),
  })
  .strict();

/**
 * `pages.query`: one page (offset, 1..1000 rows) of the Pages table of a crawl, its filter and its
 * sort (any column, either direction); `withTotal: false` skips counting the matching rows.
 */
export const pagesQuerySchema = z
  .object({
    crawlId: z.number().int().positive(),
    offset: z.number().int().min(0),
    limit: z.number().int().min(1).max(1000),
    filter: pagesFilterSchema,
    sort: z.object({ column: z.enum(PAGE_COLUMNS), direction: z.enum(['asc', 'desc']) }).strict(),
    /** false skips COUNT(*) (later pages of a query whose total is known); `total` is then -1. @default true */
    withTotal: z.boolean().optional(),
  })
  .strict();
