import { INDEXABILITY, INDEXABILITY_LABELS, STATUS_FILTER_LABELS, STATUS_FILTERS, type Indexability, type PagesFilter, type StatusFilter } from '../../../../shared/types/pages';
import { SITEMAP_FILTER_LABELS, SITEMAP_FILTERS, type SitemapFilter } from '../../../../shared/types/sitemaps';
import { FieldError } from '../../components/FieldError';

/**
 * `filter` without empty fields, so equal filters serialise equally (one query key). Fields this
 * toolbar does not edit (the Overview's ranges) are kept as they came.
 */
export function withoutEmpty(filter: PagesFilter): PagesFilter {
  const result: PagesFilter = { ...filter };
  for (const [key, value] of Object.entries(result) as [keyof PagesFilter, unknown][]) {
    if (value === undefined || value === null || value === '' || value === false) delete result[key];
  }
  if (result.status === 'all') delete result.status;
  if (result.depth !== undefined && !(Number.isInteger(result.depth) && result.depth >= 0)) delete result.depth;
  return result;
}

/** The Overview's click-through narrowing in words, or null when there is none. */
export function overviewNarrowing(filter: PagesFilter): string | null {
  const parts: string[] = [];
  if (filter.responseMsAtLeast !== undefined) parts.push(`response time ≥ ${filter.responseMsAtLeast} ms`);
  if (filter.responseMsBelow !== undefined) parts.push(`response time < ${filter.responseMsBelow} ms`);
  if (filter.fetchedAtMsAtLeast !== undefined) parts.push(`fetched from ${new Date(filter.fetchedAtMsAtLeast).toLocaleTimeString()}`);
  if (filter.fetchedAtMsBelow !== undefined) parts.push(`fetched before ${new Date(filter.fetchedAtMsBelow).toLocaleTimeString()}`);
  if (filter.depthAtLeast !== undefined) parts.push(`depth ≥ ${filter.depthAtLeast}`);
  if (filter.withoutValue === 'contentType') parts.push('no content type');
  if (filter.withoutValue === 'indexability') parts.push('no indexability recorded');
  return parts.length > 0 ? parts.join(', ') : null;
}

/** The Pages table's filters: Status, URL contains (with a regex switch), host, depth, content type, indexability, sitemap, and the site tree's path. */
export function PagesFilters({ filter, onChange, regexError }: { filter: PagesFilter; onChange(filter: PagesFilter): void; regexError: string | null }) {
  const patch = (change: Partial<PagesFilter>) => onChange(withoutEmpty({ ...filter, ...change }));
  return (
    <div className="toolbar pages-filters">
      <label htmlFor="pages-status">Status</label>
      <select id="pages-status" value={filter.status ?? 'all'} onChange={(event) => patch({ status: event.target.value as StatusFilter })}>
        {STATUS_FILTERS.map((status) => (
          <option key={status} value={status}>
            {STATUS_FILTER_LABELS[status]}
          </option>
        ))}
      </select>
      <label htmlFor="pages-url">URL contains</label>
      <input
        id="pages-url"
        type="search"
        value={filter.urlContains ?? ''}
        onChange={(event) => patch({ urlContains: event.target.value })}
        placeholder={filter.urlRegex ? 'regular expression' : 'text'}
        aria-invalid={regexError ? true : undefined}
        aria-describedby={regexError ? 'pages-url-error' : undefined}
      />
      <label className="inline-check">
        <input type="checkbox" checked={filter.urlRegex === true} onChange={(event) => patch({ urlRegex: event.target.checked })} /> Regex
      </label>
      <FieldError id="pages-url-error" message={regexError} />
      <label htmlFor="pages-host">Host</label>
      <input id="pages-host" value={filter.host ?? ''} onChange={(event) => patch({ host: event.target.value.trim().toLowerCase() })} placeholder="exact host" size={14} />
      <label htmlFor="pages-depth">Depth</label>
      <input
        id="pages-depth"
        type="number"
        min={0}
        value={filter.depth ?? ''}
        onChange={(event) => patch({ depth: event.target.value === '' ? undefined : Number(event.target.value) })}
        style={{ width: '4.5rem' }}
      />
      <label htmlFor="pages-content-type">Content type</label>
      <input id="pages-content-type" value={filter.contentType ?? ''} onChange={(event) => patch({ contentType: event.target.value.trim().toLowerCase() })} placeholder="text/html" size={11} />
      <label htmlFor="pages-indexability">Indexability</label>
      <select id="pages-indexability" value={filter.indexability ?? ''} onChange={(event) => patch({ indexability: (event.target.value || undefined) as Indexability | undefined })}>
        <option value="">All</option>
        {INDEXABILITY.map((value) => (
          <option key={value} value={value}>
            {INDEXABILITY_LABELS[value]}
          </option>
        ))}
      </select>
      <label htmlFor="pages-sitemap">Sitemap</label>
      <select id="pages-sitemap" value={filter.sitemap ?? ''} onChange={(event) => patch({ sitemap: (event.target.value || undefined) as SitemapFilter | undefined })}>
        <option value="">All</option>
        {SITEMAP_FILTERS.map((value) => (
          <option key={value} value={value}>
            {SITEMAP_FILTER_LABELS[value]}
          </option>
        ))}
      </select>
      {overviewNarrowing(filter) ? (
        <button
          type="button"
          onClick={() => patch({ responseMsAtLeast: undefined, responseMsBelow: undefined, fetchedAtMsAtLeast: undefined, fetchedAtMsBelow: undefined, depthAtLeast: undefined, withoutValue: undefined })}
          title="Show these pages without the Overview's narrowing"
        >
          {overviewNarrowing(filter)} ✕
        </button>
      ) : null}
      {filter.pathPrefix ? (
        <button type="button" onClick={() => patch({ pathPrefix: undefined })} title="Show every path again">
          Path starts with {filter.pathPrefix} ✕
        </button>
      ) : null}
      <button type="button" onClick={() => onChange({})} disabled={Object.keys(filter).length === 0}>
        Clear filters
      </button>
    </div>
  );
}
