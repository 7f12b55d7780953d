import { Fragment, type ReactNode } from 'react';
import { CANONICAL_SOURCE_LABELS, type UrlInspection } from '../../../../shared/ipc/inspector-view';
import { linkRuleLabel } from '../../../../shared/types/link-rules';
import type { UrlSource } from '../../../../shared/types/url-sources';
import { useStore } from '../../store';
import { HEURISTIC_WORDS } from '../duplicates/heuristics';

/** A URL of the crawl that opens in the inspector when clicked; plain text when it is not one of the crawl's URLs. */
export function UrlLink({ urlId, children }: { urlId: number | null | undefined; children: ReactNode }) {
  const inspectUrl = useStore((s) => s.inspectUrl);
  if (urlId === null || urlId === undefined) return <span className="url-text">{children}</span>;
  return (
    <button type="button" className="link-button url-text" onClick={() => inspectUrl(urlId)}>
      {children}
    </button>
  );
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB (${bytes.toLocaleString()} bytes)`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB (${bytes.toLocaleString()} bytes)`;
}

const iso = (atMs: number | null): string => (atMs === null ? 'not recorded' : new Date(atMs).toISOString());

export function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `inspector-${title.toLowerCase().replace(/\s+/g, '-')}`;
  return (
    <section className="inspector-section" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  );
}

/** Names: spellings, normalized URL and key, canonical URL with its layer, version template. */
export function NamesSection({ inspection }: { inspection: UrlInspection }) {
  const { names } = inspection;
  return (
    <Section title="Names">
      <dl className="facts">
        <dt>Normalized URL</dt>
        <dd data-testid="inspector-normalized">{names.normalized}</dd>
        <dt>Normalized key</dt>
        <dd data-testid="inspector-key" title="The URL-seen test's key: a UUID v5 of the normalized URL">
          {names.normalizedKey}
        </dd>
        <dt>Canonical URL</dt>
        <dd data-testid="inspector-canonical">
          <UrlLink urlId={names.canonical.urlId === inspection.urlId ? null : names.canonical.urlId}>{names.canonical.url}</UrlLink>
        </dd>
        <dt>Chosen by</dt>
        <dd data-testid="inspector-canonical-layer">
          {CANONICAL_SOURCE_LABELS[names.canonical.source]}: {names.canonical.heuristic ? HEURISTIC_WORDS[names.canonical.heuristic] : names.canonical.detail}
        </dd>
        {names.versionTemplate ? (
          <>
            <dt>Version template</dt>
            <dd>
              {names.versionTemplate.template} <span className="muted">(versions {names.versionTemplate.versions.join(', ')})</span>
            </dd>
          </>
        ) : null}
        <dt>Profile</dt>
        <dd>{names.profileName}</dd>
      </dl>
      <table className="members" aria-label="Spellings">
        <thead>
          <tr>
            <th scope="col">Raw spelling</th>
            <th scope="col">First seen on</th>
          </tr>
        </thead>
        <tbody>
          {names.spellings.map((spelling) => (
            <tr key={spelling.rawUrl}>
              <td className="url-text">
                {spelling.rawUrl}
                {spelling.fragmentSpellings ? <span className="muted"> (also met with {spelling.fragmentSpellings === 1 ? 'a #fragment' : `${spelling.fragmentSpellings} different #fragments`})</span> : null}
              </td>
              <td>{spelling.firstSeenFromUrl ? <UrlLink urlId={spelling.firstSeenFromId}>{spelling.firstSeenFromUrl}</UrlLink> : <span className="muted">seed</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}

/** Response: status, headers, size, fetch time and fetched-at, content type, indexability, error. */
export function ResponseSection({ inspection }: { inspection: UrlInspection }) {
  const { response } = inspection;
  const headers = response.headers ? Object.entries(response.headers) : null;
  return (
    <Section title="Response">
      <dl className="facts">
        <dt>Status</dt>
        <dd data-testid="inspector-status">{response.status ?? 'no answer'}</dd>
        <dt>State</dt>
        <dd>{response.state.replace('_', ' ')}</dd>
        {response.errorCode ? (
          <>
            <dt>Error</dt>
            <dd className="state-error" data-testid="inspector-error">
              {response.errorCode}: {response.errorMessage ?? ''}
            </dd>
          </>
        ) : null}
        <dt>Content type</dt>
        <dd>{response.contentType ?? 'not recorded'}</dd>
        <dt>Size</dt>
        <dd>{response.sizeBytes === null ? 'not recorded' : `${formatBytes(response.sizeBytes)}${response.truncated ? ', cut at the size cap' : ''}`}</dd>
        <dt>Fetch time</dt>
        <dd>{response.fetchMs === null ? 'not recorded' : `${response.fetchMs} ms`}</dd>
        <dt>Fetched at</dt>
        <dd>{iso(response.fetchedAtMs)}</dd>
        <dt>Indexability</dt>
        <dd>{response.indexability ?? 'not recorded'}</dd>
        {response.title !== null ? (
          <>
            <dt>Title</dt>
            <dd>{response.title}</dd>
          </>
        ) : null}
      </dl>
      <h4>Headers</h4>
      {headers === null ? (
        <p className="muted">not recorded</p>
      ) : (
        <table className="members" aria-label="Response headers">
          <tbody>
            {headers.map(([name, value]) => (
              <tr key={name}>
                <th scope="row">{name}</th>
                <td className="url-text">{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

/** Redirect chain: each hop with its status and Location. */
export function RedirectSection({ inspection }: { inspection: UrlInspection }) {
  const { redirects } = inspection;
  return (
    <Section title="Redirect chain">
      {redirects.role === 'none' ? (
        <p className="muted">This URL neither redirects nor was reached through a redirect.</p>
      ) : (
        <>
          <p className="hint">{redirects.role === 'redirects' ? 'This URL redirects.' : 'A redirect led to this URL.'}</p>
          <ol className="redirect-hops" aria-label="Redirect hops">
            {redirects.hops.map((hop, index) => (
              <li key={`${index}-${hop.url}`} className={hop.urlId === inspection.urlId ? 'current' : undefined}>
                <span className="hop-status" data-testid="hop-status">
                  {hop.status ?? (hop.refusedBy ? 'refused' : hop.errorCode ?? 'not fetched')}
                </span>{' '}
                <UrlLink urlId={hop.urlId === inspection.urlId ? null : hop.urlId}>{hop.url}</UrlLink>
                {hop.location ? <span className="muted"> → Location: {hop.location}</span> : null}
                {hop.fetchMs !== null ? <span className="muted"> ({hop.fetchMs} ms)</span> : null}
                {hop.refusedBy ? <span className="muted"> refused: {linkRuleLabel(hop.refusedBy)}</span> : null}
                {hop.errorCode && hop.status !== null ? <span className="state-error"> {hop.errorCode}</span> : null}
              </li>
            ))}
          </ol>
        </>
      )}
    </Section>
  );
}

const ROBOTS_WORDS: Record<UrlInspection['robots']['verdict'], string> = {
  allowed: 'Allowed',
  blocked: 'Blocked by robots.txt',
  unavailable: 'robots.txt unavailable',
  ignored: 'Not checked: this crawl ignores robots.txt',
  'not-checked': 'Not checked yet',
};

/** Robots: the verdict and what was stored about it. */
export function RobotsSection({ inspection }: { inspection: UrlInspection }) {
  const { robots } = inspection;
  return (
    <Section title="Robots">
      <p data-testid="inspector-robots">
        <strong>{ROBOTS_WORDS[robots.verdict]}</strong>
        {robots.matchedLine ? (
          <>
            {' '}
            by the line <code>{robots.matchedLine}</code>
          </>
        ) : null}
      </p>
      {robots.message ? <p className="hint">{robots.message}</p> : null}
    </Section>
  );
}

const SOURCE_WORDS: Readonly<Record<UrlSource, string>> = {
  seed: 'seed',
  link: 'linked from a crawled page',
  sitemap: 'listed in a sitemap',
  redirect: 'a redirect target',
  list: 'in a URL list',
};

/** Sources: how the crawl met the URL (seed, link, sitemap, redirect, list) and the sitemaps that list it. */
export function SourcesSection({ inspection }: { inspection: UrlInspection }) {
  const { sources, sitemaps } = inspection.sources;
  return (
    <Section title="Sources">
      <p data-testid="inspector-sources">{sources.length > 0 ? sources.map((source) => SOURCE_WORDS[source]).join(', ') : 'not recorded (crawled before sources were kept)'}</p>
      {sources.includes('sitemap') && !sources.includes('link') && !sources.includes('seed') ? <p className="hint">Orphan: listed in a sitemap, but no crawled page links to it.</p> : null}
      {sitemaps.length > 0 ? (
        <ul>
          {sitemaps.map((sitemap) => (
            <li key={sitemap.url}>
              <code>{sitemap.url}</code>
              {sitemap.lastmod ? ` (lastmod ${sitemap.lastmod})` : ''}
              {sitemap.listedAs ? (
                <>
                  {' '}
                  as <code>{sitemap.listedAs}</code>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </Section>
  );
}

/** Timeline: the URL's life from stored fields. */
export function TimelineSection({ inspection }: { inspection: UrlInspection }) {
  return (
    <Section title="Timeline">
      <ol className="timeline" aria-label="Timeline">
        {inspection.timeline.map((step, index) => (
          <li key={index}>
            <span className="muted">{step.atMs === null ? '' : `${new Date(step.atMs).toISOString()} `}</span>
            {step.detail}
            {step.urlId ? (
              <>
                {' '}
                <UrlLink urlId={step.urlId}>(inspect that page)</UrlLink>
              </>
            ) : null}
          </li>
        ))}
      </ol>
    </Section>
  );
}

/** Duplicates: its URL group with cause labels and its content group with similarity. */
export function DuplicatesSection({ inspection }: { inspection: UrlInspection }) {
  const { urlGroup, contentGroup } = inspection.duplicates;
  return (
    <Section title="Duplicates">
      {urlGroup ? (
        <table className="members" aria-label="URL group">
          <caption>Its URL group: {urlGroup.members.length} spellings of one normalized key</caption>
          <thead>
            <tr>
              <th scope="col">Raw URL</th>
              <th scope="col">Differs by</th>
            </tr>
          </thead>
          <tbody>
            {urlGroup.members.map((member) => (
              <tr key={member.rawUrl} className={member.rawUrl === urlGroup.canonical ? 'canonical' : undefined}>
                <td className="url-text">{member.rawUrl}</td>
                <td>{member.causes.length === 0 ? <span className="muted">already normal</span> : member.causes.join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">One spelling only: no URL group.</p>
      )}
      {contentGroup ? (
        <table className="members" aria-label="Content group">
          <caption>Its content group ({contentGroup.kind === 'exact' ? 'identical visible text' : 'near-duplicates'})</caption>
          <thead>
            <tr>
              <th scope="col">Page</th>
              <th scope="col" className="num">
                Similarity
              </th>
            </tr>
          </thead>
          <tbody>
            {contentGroup.members.map((member) => (
              <tr key={member.urlId} className={member.urlId === inspection.urlId ? 'selected' : undefined}>
                <td>
                  <UrlLink urlId={member.urlId === inspection.urlId ? null : member.urlId}>{member.url}</UrlLink>
                </td>
                <td className="num">{member.similarity.toFixed(2)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">No page with the same or nearly the same text.</p>
      )}
    </Section>
  );
}


/** Extracted: what the crawl's custom extractors found on the page (issue 14 part 2), by name. */
export function ExtractedSection({ inspection }: { inspection: UrlInspection }) {
  const { extracted } = inspection;
  if (extracted === null) return null;
  const entries = Object.entries(extracted);
  return (
    <Section title="Extracted">
      {entries.length === 0 ? (
        <p className="muted">The crawl has no extractors.</p>
      ) : (
        <dl className="facts" data-testid="inspector-extracted">
          {entries.map(([name, value]) => (
            <Fragment key={name}>
              <dt>{name}</dt>
              <dd>{value === null ? <span className="muted">not found</span> : Array.isArray(value) ? (value.length === 0 ? <span className="muted">none</span> : value.join(' · ')) : String(value)}</dd>
            </Fragment>
          ))}
        </dl>
      )}
    </Section>
  );
}

/** Rendering: how the page was rendered in Chromium (issue 14 part 3); nothing when it was not. */
export function RenderSection({ inspection }: { inspection: UrlInspection }) {
  const { render } = inspection;
  if (render === null) return null;
  return (
    <Section title="Rendering">
      <dl className="facts" data-testid="inspector-render">
        <dt>Why</dt>
        <dd>{RENDER_REASONS[render.reason] ?? render.reason}</dd>
        <dt>Render time</dt>
        <dd>{render.renderMs.toLocaleString('en-US')} ms</dd>
        <dt>Requests</dt>
        <dd>
          {render.requests} fetched, {render.blockedRequests} blocked, {render.skippedRequests} skipped (images, media, fonts)
        </dd>
        <dt>Links only after rendering</dt>
        <dd>{render.renderedLinks}</dd>
        <dt>Rendered words</dt>
        <dd>{render.renderedWords.toLocaleString('en-US')}</dd>
      </dl>
    </Section>
  );
}

const RENDER_REASONS: Record<string, string> = {
  always: 'the crawl renders every page (--render always)',
  'app-root': 'an empty app root and a script',
  noscript: 'a <noscript> asking for JavaScript',
  'document-write': 'a script calling document.write',
  'little-text': 'little visible text and a script',
};
