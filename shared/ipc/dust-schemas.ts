/** Request schemas of the Duplicates view's Rules section (issue 12 parts 5 and 6): mine, accept, undo DUST rules. */
import { z } from 'zod';
import { MAX_PIECE_CHARS } from '../url/dust/rule';

const id = z.number().int().positive();
const piece = z.string().max(MAX_PIECE_CHARS);
const pieces = z.array(piece).min(1).max(2);

/** A DUST rule as the renderer sends it back (validateDustRule checks the rest before any write). */
const dustRuleSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('substitution'), host: z.string().min(1).max(253), from: pieces, to: pieces, endAnchored: z.boolean() }).strict(),
  z.object({ kind: z.literal('parameter'), host: z.string().min(1).max(253), name: z.string().min(1).max(256) }).strict(),
]);

export const dustRequestSchemas = {
  'dust.mine': z.object({ crawlId: id, minSupport: z.number().int().min(1).max(1_000_000).optional() }).strict(),
  /** `pause-and-resume`: a running crawl is paused, re-keyed and resumed; `refuse`: CRAWL_RUNNING. */
  'dust.accept': z.object({ crawlId: id, rule: dustRuleSchema, whileRunning: z.enum(['refuse', 'pause-and-resume']), source: z.enum(['dust', 'content-group']).optional() }).strict(),
  /** The rules that explain one content group's duplicates (to promote its difference to a rule). */
  'dust.groupRules': z.object({ crawlId: id, groupId: id }).strict(),
  'dust.undo': z.object({ crawlId: id, ruleId: id }).strict(),
} as const;
