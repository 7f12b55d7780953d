import { z } from 'zod';
import { URL_STATES } from '../types/crawl';
import { CRAWL_SETTINGS } from '../types/crawl-settings';
import { EXCLUSION_RULES } from './inspector-view';

/**
 * Request schemas of the workbench views' channels (merged into `requestSchemas`). Each is
 * strict: an unknown key, a wrong type or an out-of-range number is INVALID_PAYLOAD.
 */

const id = z.number().int().positive();
const crawlId = z.object({ crawlId: id }).strict();
const page = { crawlId: id, offset: z.number().int().min(0), limit: z.number().int().min(1).max(1000) };

const tldSchema = CRAWL_SETTINGS.tld.schema;
const profileSchema = CRAWL_SETTINGS.normalizationProfile.schema;

const savedSettingsPatch = z
  .object({
    tld: tldSchema,
    ignoredExtensions: CRAWL_SETTINGS.ignoredExtensions.schema,
    normalizationProfile: profileSchema,
  })
  .partial()
  .strict();

const exportKinds = ['pages', 'frontier', 'errors', 'urlGroups', 'contentGroups', 'versions', 'traps', 'sitemapReport'] as const;
const exportFormats = ['csv', 'jsonl'] as const;

/** The views' channels' request schemas, spread into `requestSchemas` (schemas.ts). */
export const viewRequestSchemas = {
  'crawl.pause': crawlId,
  'crawl.resume': crawlId,
  'crawl.open': crawlId,
  'crawl.applySettings': z.object({ crawlId: id, settings: savedSettingsPatch.omit({ normalizationProfile: true }) }).strict(),
  'crawl.getRecovery': z.object({}).strict(),
  'crawl.discardRecovery': crawlId,
  'frontier.queryHosts': z.object({ ...page, text: z.string().max(253).optional() }).strict(),
  'frontier.queryTraps': crawlId,
  'frontier.setTrapState': z.object({ crawlId: id, trapId: id, state: z.enum(['released', 'excluded']) }).strict(),
  'duplicates.queryUrlGroups': z.object({ ...page, text: z.string().max(2048).optional() }).strict(),
  'duplicates.getUrlGroup': z.object({ crawlId: id, urlId: id }).strict(),
  'duplicates.queryContentGroups': z.object({ ...page, kind: z.enum(['exact', 'near']).optional() }).strict(),
  'duplicates.getContentGroup': z.object({ crawlId: id, groupId: id }).strict(),
  'duplicates.queryVersionTemplates': z.object({ ...page, text: z.string().max(2048).optional() }).strict(),
  'duplicates.getVersionTemplate': z.object({ crawlId: id, templateId: id }).strict(),
  'settings.get': z.object({}).strict(),
  'settings.update': savedSettingsPatch,
  'settings.testDomain': z.object({ url: z.string().min(1).max(8192), tld: tldSchema }).strict(),
  'settings.getPublicSuffixList': z.object({}).strict(),
  'settings.previewNormalization': z.object({ crawlId: id, profile: profileSchema }).strict(),
  'checkpoints.list': crawlId,
  'checkpoints.create': z.object({ crawlId: id, name: z.string().regex(/^[\w.-]{1,64}$/, "1-64 letters, digits, '.', '-' or '_'") }).strict(),
  'checkpoints.resume': z.object({ crawlId: id, name: z.string().regex(/^[\w.-]{1,64}$/) }).strict(),
  /** A finished export of this process, by its id: main knows the file, the renderer names no path. */
  'export.showInFolder': z.object({ exportId: id }).strict(),
  'export.start': z
    .object({
      crawlId: id,
      kind: z.enum(exportKinds),
      format: z.enum(exportFormats),
      /** Absolute path of the file to write; its folder must exist and the file must not. */
      file: z.string().min(1).max(4096),
    })
    .strict(),
  'urls.inspect': z.object({ crawlId: id, urlId: id }).strict(),
  'urls.source': z.object({ crawlId: id, urlId: id }).strict(),
  'urls.queryLinks': z.object({ crawlId: id, urlId: id, direction: z.enum(['in', 'out']), offset: z.number().int().min(0), limit: z.number().int().min(1).max(1000) }).strict(),
  'urls.refetch': z.object({ crawlId: id, urlId: id }).strict(),
  'urls.exclude': z.object({ crawlId: id, urlId: id, rule: z.enum(EXCLUSION_RULES) }).strict(),
  /** Only http(s) URLs reach the system browser (never file:, javascript: or an app's own scheme). */
  'urls.openExternal': z.object({ url: z.string().max(8192).regex(/^https?:\/\/[^\s]+$/i, 'an http or https URL') }).strict(),
} as const;

/** The URL table's request: `frontier.queryUrls` filters plus whether to count matching rows. */
export const urlQuerySchema = z
  .object({
    ...page,
    state: z.enum(URL_STATES as [string, ...string[]]).optional(),
    host: z.string().max(253).optional(),
    text: z.string().max(2048).optional(),
    /** false skips COUNT(*) (later pages of a query whose total is known); `total` is then -1. @default true */
    withTotal: z.boolean().optional(),
  })
  .strict();
