/**
 * Request schema of the re-run of a crawl's extractors from the Pages view (issue 14 part 2),
 * merged into `requestSchemas`. The schema bounds the payload; whether each line reads as an
 * extractor (shared/types/extraction.ts parseExtractor) and compiles is the handler's check, answered
 * with INVALID_EXTRACTOR naming the line, so the form shows it beside the text.
 */
import { z } from 'zod';
import { MAX_EXTRACTOR_EXPRESSION_CHARS, MAX_EXTRACTORS } from '../types/extraction';

const id = z.number().int().positive();

/**
 * Longest extractor line (characters): a name of 64, `:count`, `=`, the kind and its colon, an
 * expression of {@link MAX_EXTRACTOR_EXPRESSION_CHARS} and an `@attribute`, with room to spare; a
 * longer line could not read as an extractor anyway.
 */
export const MAX_EXTRACTOR_LINE_CHARS = MAX_EXTRACTOR_EXPRESSION_CHARS + 256;

/**
 * Most lines one re-run may send: {@link MAX_EXTRACTORS} extractors, and as many again so that a
 * list one too long is refused as INVALID_EXTRACTOR (saying how many) rather than as a bad payload.
 */
export const MAX_EXTRACTOR_LINES = 2 * MAX_EXTRACTORS;

/** The extractor re-run's channel's request schema, spread into `requestSchemas` (schemas.ts). */
export const extractionRequestSchemas = {
  /**
   * Re-runs extractors over crawl `crawlId`'s stored bodies: `lines` in the crawl form's text form
   * (`NAME[:first|all|count]=KIND:EXPRESSION`, shared/types/extraction.ts), blank lines ignored;
   * none drops the crawl's extractors. Progress arrives as `extract.onDidProgress`.
   */
  'extract.rerun': z
    .object({
      crawlId: id,
      lines: z.array(z.string().max(MAX_EXTRACTOR_LINE_CHARS)).max(MAX_EXTRACTOR_LINES),
    })
    .strict(),
} as const;
