/**
 * Stored redirect chains in PostgreSQL (issue 13), as the crawl runner reads them (see
 * engine/fetch/redirects.ts for the design; store/sqlite/redirect-chains.ts for SQLite): one
 * `redirect` link per hop, from the 3xx URL to its target, the newest link of a URL standing.
 */
import type { Pool, PoolClient } from 'pg';
import { LINK_KIND_CODES } from '../sqlite/link-codes';

/** A redirect of a commit batch to check: `urlId` redirects to the known URL `targetId`, at most `maxSteps` hops followed. */
export interface RedirectCheck {
  urlId: number;
  targetId: number;
  maxSteps: number;
}

/**
 * True when a redirect from `urlId` to the already known `targetId` closes a loop: the target is
 * the URL itself, or the target's stored redirects lead back to it within `maxSteps` hops. One
 * recursive query over `links` (kind redirect) of crawl `crawlId`, whichever way the loop's URLs
 * were first discovered.
 */
export async function closesLoop(client: Pool | PoolClient, crawlId: number, urlId: number, targetId: number, maxSteps: number): Promise<boolean> {
  const [loop] = await closedLoops(client, crawlId, [{ urlId, targetId, maxSteps }]);
  return loop!;
}

/**
 * {@link closesLoop} for each redirect of a batch, in order, in one round trip: redirect `i` also
 * follows the redirects before it in `checks` (their links are written after the check, as the
 * commit batch writes outcomes in order), the newest link of a URL standing, as if each were
 * checked and written in turn.
 * @returns `loops[i]` for `checks[i]`
 */
export async function closedLoops(client: Pool | PoolClient, crawlId: number, checks: readonly RedirectCheck[]): Promise<boolean[]> {
  if (checks.length === 0) return [];
  const next = await storedRedirects(
    client,
    crawlId,
    checks.map((check) => check.targetId),
    Math.max(...checks.map((check) => check.maxSteps)),
  );
  return checks.map(({ urlId, targetId, maxSteps }) => {
    let id: number | undefined = targetId;
    let loop = false;
    for (let steps = 0; id !== undefined && steps <= maxSteps; steps += 1) {
      if (id === urlId) {
        loop = true;
        break;
      }
      id = next.get(id);
    }
    // Written now (by the caller, after this check), so a later redirect of the batch sees this hop.
    next.set(urlId, targetId);
    return loop;
  });
}

/**
 * The newest stored redirect of every URL on the chains from `startIds`, up to `maxSteps` hops
 * each: one recursive query. Every URL a chain of the batch can reach in `maxSteps` hops is in it
 * (a hop of the batch leads to one of `startIds`, whose chain is read from its start).
 * @returns the redirect target by redirecting URL id
 */
async function storedRedirects(client: Pool | PoolClient, crawlId: number, startIds: readonly number[], maxSteps: number): Promise<Map<number, number>> {
  const { rows } = await client.query<{ from_url_id: number; to_url_id: number }>(
    `WITH RECURSIVE chain (url_id, next_id, step) AS (
       SELECT s.url_id, hop.to_url_id, 1
       FROM unnest($2::bigint[]) AS s(url_id)
       CROSS JOIN LATERAL (
         SELECT l.to_url_id FROM links l WHERE l.crawl_id = $1 AND l.from_url_id = s.url_id AND l.kind = ${LINK_KIND_CODES.redirect} AND l.to_url_id IS NOT NULL ORDER BY l.id DESC LIMIT 1
       ) AS hop
       UNION
       SELECT chain.next_id, hop.to_url_id, chain.step + 1
       FROM chain
       CROSS JOIN LATERAL (
         SELECT l.to_url_id FROM links l WHERE l.crawl_id = $1 AND l.from_url_id = chain.next_id AND l.kind = ${LINK_KIND_CODES.redirect} AND l.to_url_id IS NOT NULL ORDER BY l.id DESC LIMIT 1
       ) AS hop
       WHERE chain.step < $3
     )
     SELECT DISTINCT url_id AS from_url_id, next_id AS to_url_id FROM chain`,
    [crawlId, [...new Set(startIds)], maxSteps],
  );
  return new Map(rows.map((row) => [row.from_url_id, row.to_url_id]));
}

/** Redirect targets of crawl `crawlId`'s seeds stored so far (depth 0, reached by redirects), to widen the scope of a resumed crawl. */
export async function seedRedirectTargets(db: Pool | PoolClient, crawlId: number): Promise<{ url: string; registrableDomain: string | null }[]> {
  const { rows } = await db.query<{ url: string; registrableDomain: string | null }>(
    `SELECT url, registrable_domain AS "registrableDomain" FROM urls WHERE crawl_id = $1 AND depth = 0 AND redirect_hops > 0 ORDER BY id`,
    [crawlId],
  );
  return rows;
}
