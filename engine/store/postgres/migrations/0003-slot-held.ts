/**
 * PostgreSQL schema 3 (issue 13):
 * - `urls.slot_held`, true while an in-flight URL still holds one of its host's request slots
 *   (`hosts.in_flight`). A claim sets it; the host release (a fetch over, postgres/host-releases.ts)
 *   and the URL's outcome clear it, so a release counts once however many times it is sent (a
 *   retried flush, a release and then the outcome), and the lease sweep (postgres/processes.ts)
 *   gives back exactly the slots a dead process still held: a URL it had released already (fetch
 *   over, outcome not yet committed) is not taken off its host twice.
 * - `processes.returned_urls`: the in-flight URLs the lease sweep gave back to pending when it found
 *   the process dead. IF NOT EXISTS: a database whose schema 1 already has it is left as it is.
 * Columns with a constant default: no table rewrite, instant on a large `urls`.
 */
export const POSTGRES_SCHEMA_3 = `
ALTER TABLE urls ADD COLUMN slot_held boolean NOT NULL DEFAULT false;
ALTER TABLE processes ADD COLUMN IF NOT EXISTS returned_urls integer NOT NULL DEFAULT 0;
`;
