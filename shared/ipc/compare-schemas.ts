/**
 * Request schemas of the Compare view (issue 14 part 7), merged into `requestSchemas`. Strict: an
 * unknown key, a wrong type or an out-of-range number is INVALID_PAYLOAD. What a schema cannot see
 * (whether a file is a Crawlbench database) the handler checks, with codes of its own
 * (COMPARE_FILE_INVALID, DB_NOT_FOUND, NOT_A_CRAWL_DB, SCHEMA_TOO_NEW).
 */
import { z } from 'zod';
import { CHANGE_KINDS } from '../types/comparison';
import { MAX_PAGE_ROWS, MAX_PATH_CHARS } from './limits';

const id = z.number().int().positive();

/** Longest "URL contains" text of the Compare view's filter (characters). */
export const MAX_CHANGE_FILTER_CHARS = 2048;

/** The Compare view's channels' request schemas, spread into `requestSchemas` (schemas.ts). */
export const compareRequestSchemas = {
  /**
   * Compares crawl `beforeCrawlId` of the open database with crawl `afterCrawlId` of it, or with a
   * crawl of another Crawlbench database file (`afterFile`, an absolute path; its newest crawl
   * unless `afterCrawlId` names one).
   */
  'compare.run': z
    .object({
      beforeCrawlId: id,
      afterCrawlId: id.optional(),
      afterFile: z.string().min(1).max(MAX_PATH_CHARS).optional(),
    })
    .strict()
    .refine((request) => request.afterCrawlId !== undefined || request.afterFile !== undefined, {
      message: 'name the after crawl (afterCrawlId), or a database file to compare with (afterFile)',
      path: ['afterCrawlId'],
    }),
  /** One page of a kept comparison's changes, of one kind or all, whose URL contains a text (case-insensitive). */
  'compare.changes': z
    .object({
      comparisonId: id,
      kind: z.enum(CHANGE_KINDS).optional(),
      urlContains: z.string().max(MAX_CHANGE_FILTER_CHARS).optional(),
      offset: z.number().int().min(0),
      limit: z.number().int().min(1).max(MAX_PAGE_ROWS),
    })
    .strict(),
} as const;
