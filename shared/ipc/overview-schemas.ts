import { z } from 'zod';

/**
 * Request schemas of the Overview tab's and the site tree's channels (merged into `requestSchemas`).
 * Strict: an unknown key, a wrong type or an out-of-range number is INVALID_PAYLOAD.
 */

const id = z.number().int().positive();

/** Most site-tree children one request returns (a directory with more is paged). */
export const MAX_SITE_TREE_CHILDREN = 500;

/** The Overview and site-tree channels' request schemas, spread into `requestSchemas` (schemas.ts). */
export const overviewRequestSchemas = {
  'overview.get': z.object({ crawlId: id }).strict(),
  'siteTree.children': z
    .object({
      crawlId: id,
      /** Absent: the top level, one node per host. */
      host: z.string().min(1).max(253).optional(),
      /** A directory under `host`: starts and ends with `/`. @default '/' */
      pathPrefix: z
        .string()
        .max(8192)
        .regex(/^\/(.*\/)?$/s, 'a directory path starts and ends with "/"')
        .optional(),
      offset: z.number().int().min(0),
      limit: z.number().int().min(1).max(MAX_SITE_TREE_CHILDREN),
    })
    .strict()
    .refine((request) => request.pathPrefix === undefined || request.host !== undefined, { message: 'pathPrefix needs a host', path: ['pathPrefix'] }),
  'urls.ancestry': z.object({ crawlId: id, urlId: id }).strict(),
} as const;
