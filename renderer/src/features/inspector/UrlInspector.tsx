import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import {
  CANONICAL_SOURCE_LABELS,
  INSPECTOR_LINKS_PER_PAGE,
  type InlinkRow,
  type LinkPage,
  type OutlinkRow,
  type UrlInspection,
} from '../../../../shared/ipc/inspector-view';
import { linkRuleLabel } from '../../../../shared/types/link-rules';
import { api } from '../../ipc/client';
import { useStore } from '../../store';
import { HEURISTIC_WORDS } from '../duplicates/heuristics';

/** A URL of the crawl that opens in the inspector when clicked; plain text when it is not one of the crawl's URLs. */
function UrlLink({ urlId, children }: { urlId: number | null | undefined; children: ReactNode }) {
  const inspectUrl = useStore((s) => s.inspectUrl);
  if (urlId === null || urlId === undefined) return <span className="url-text">{children}</span>;
  return (
    <button type="button" className="link-button url-text" onClick={() => inspectUrl(urlId)}>
      {children}
    </button>
  );
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB (${bytes.toLocaleString()} bytes)`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB (${bytes.toLocaleString()} bytes)`;
}

const iso = (atMs: number | null): string => (atMs === null ? 'not recorded' : new Date(atMs).toISOString());

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `inspector-${title.toLowerCase().replace(/\s+/g, '-')}`;
  return (
    <section className="inspector-section" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  );
}

function NamesSection({ inspection }: { inspection: UrlInspection }) {
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
              <td className="url-text">{spelling.rawUrl}</td>
              <td>{spelling.firstSeenFromUrl ? <UrlLink urlId={spelling.firstSeenFromId}>{spelling.firstSeenFromUrl}</UrlLink> : <span className="muted">seed</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}

function ResponseSection({ inspection }: { inspection: UrlInspection }) {
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

function RedirectSection({ inspection }: { inspection: UrlInspection }) {
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

function RobotsSection({ inspection }: { inspection: UrlInspection }) {
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

function TimelineSection({ inspection }: { inspection: UrlInspection }) {
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

/** A link list capped at INSPECTOR_LINKS_PER_PAGE rows at a time, with "N more" and a button that loads the next window. */
function useLinkWindow<Row>(inspection: UrlInspection, direction: 'in' | 'out', first: LinkPage<Row>) {
  const [rows, setRows] = useState<Row[]>(first.rows);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setRows(first.rows);
    setError(null);
  }, [first]);
  const more = async () => {
    const result = await api['urls.queryLinks']({ crawlId: inspection.crawlId, urlId: inspection.urlId, direction, offset: rows.length, limit: INSPECTOR_LINKS_PER_PAGE });
    if (result.ok) setRows((current) => [...current, ...(result.value.rows as Row[])]);
    else setError(result.error.message);
  };
  return { rows, remaining: first.total - rows.length, more, error };
}

function MoreLinks({ remaining, onMore, error }: { remaining: number; onMore: () => void; error: string | null }) {
  if (remaining <= 0 && !error) return null;
  return (
    <p className="buttons">
      {remaining > 0 ? (
        <>
          <span data-testid="links-more">{remaining.toLocaleString()} more</span>
          <button type="button" onClick={onMore}>
            Show {Math.min(remaining, INSPECTOR_LINKS_PER_PAGE)} more
          </button>
        </>
      ) : null}
      {error ? <span className="field-error">{error}</span> : null}
    </p>
  );
}

function InlinksSection({ inspection }: { inspection: UrlInspection }) {
  const { rows, remaining, more, error } = useLinkWindow<InlinkRow>(inspection, 'in', inspection.inlinks);
  return (
    <Section title="Inlinks">
      <p className="hint">{inspection.inlinks.total.toLocaleString()} links from pages of the crawl</p>
      {rows.length > 0 ? (
        <table className="members" aria-label="Inlinks">
          <thead>
            <tr>
              <th scope="col">From page</th>
              <th scope="col">Anchor text</th>
              <th scope="col">Kind</th>
              <th scope="col">rel</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <tr key={index}>
                <td>
                  <UrlLink urlId={row.fromUrlId}>{row.fromUrl}</UrlLink>
                </td>
                <td>{row.anchorText ?? <span className="muted">none recorded</span>}</td>
                <td>{row.element && row.element !== row.kind ? `${row.kind} (${row.element})` : row.kind}</td>
                <td>{row.rel ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <MoreLinks remaining={remaining} onMore={() => void more()} error={error} />
    </Section>
  );
}

function OutlinksSection({ inspection }: { inspection: UrlInspection }) {
  const { rows, remaining, more, error } = useLinkWindow<OutlinkRow>(inspection, 'out', inspection.outlinks);
  return (
    <Section title="Outlinks">
      <p className="hint">
        {inspection.outlinks.total.toLocaleString()} links on this page, {inspection.outlinks.refused.toLocaleString()} refused by a link rule
      </p>
      {rows.length > 0 ? (
        <table className="members" aria-label="Outlinks">
          <thead>
            <tr>
              <th scope="col">To</th>
              <th scope="col">Anchor text</th>
              <th scope="col">Kind</th>
              <th scope="col">Followed?</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <tr key={index}>
                <td>
                  <UrlLink urlId={row.toUrlId}>{row.toUrl ?? row.rawUrl}</UrlLink>
                </td>
                <td>{row.anchorText ?? <span className="muted">none recorded</span>}</td>
                <td>
                  {row.kind}
                  {row.rel ? <span className="muted"> rel={row.rel}</span> : null}
                </td>
                <td>
                  {row.refusedBy ? (
                    <span className="refused" title={`link rule: ${row.refusedBy}`}>
                      refused: {linkRuleLabel(row.refusedBy)}
                    </span>
                  ) : (
                    <span>{row.toStatus ?? row.toState?.replace('_', ' ') ?? ''}</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <MoreLinks remaining={remaining} onMore={() => void more()} error={error} />
    </Section>
  );
}

function DuplicatesSection({ inspection }: { inspection: UrlInspection }) {
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

/** Copies text to the clipboard (the Clipboard API, or a selected textarea where it is missing). */
async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // Denied (no permission): fall back to a selection copy below.
    }
  }
  const area = document.createElement('textarea');
  area.value = text;
  document.body.append(area);
  area.select();
  const copied = document.execCommand('copy');
  area.remove();
  if (!copied) throw new Error('the browser refused to copy');
}

function Actions({ inspection, onChanged }: { inspection: UrlInspection; onChanged: () => void }) {
  const mode = useStore((s) => s.info?.mode);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  useEffect(() => setMessage(null), [inspection.urlId]);
  const say = (text: string, error = false) => setMessage({ text, error });
  const copy = async () => {
    try {
      await copyText(inspection.url);
      say('URL copied.');
    } catch (error) {
      say(`Could not copy: ${(error as Error).message}`, true);
    }
  };
  const open = async () => {
    if (mode === 'electron') {
      const result = await api['urls.openExternal']({ url: inspection.url });
      if (!result.ok) say(result.error.message, true);
      return;
    }
    window.open(inspection.url, '_blank', 'noopener,noreferrer');
  };
  const refetch = async () => {
    const result = await api['urls.refetch']({ crawlId: inspection.crawlId, urlId: inspection.urlId });
    if (result.ok) say(result.value.message);
    else say(result.error.message, true);
  };
  const exclude = async (rule: UrlInspection['exclusions'][number]['rule']) => {
    const result = await api['urls.exclude']({ crawlId: inspection.crawlId, urlId: inspection.urlId, rule });
    if (result.ok) {
      say(result.value.message);
      onChanged();
    } else say(result.error.message, true);
  };
  const web = /^https?:/i.test(inspection.url);
  return (
    <div className="inspector-actions">
      <div className="buttons" role="group" aria-label="URL actions">
        <button type="button" onClick={() => void copy()}>
          Copy URL
        </button>
        <button type="button" onClick={() => void open()} disabled={!web}>
          {mode === 'electron' ? 'Open in browser' : 'Open in new tab'}
        </button>
        <button type="button" onClick={() => void refetch()} title={inspection.crawlRunning ? undefined : 'The crawl is not running: resume it first'}>
          Re-fetch now
        </button>
        {inspection.exclusions.map((option) => (
          <button key={option.rule} type="button" onClick={() => void exclude(option.rule)} title="Exclude URLs like this: adds a link rule to this crawl's settings">
            {option.label}
          </button>
        ))}
      </div>
      <p role="status" className={message?.error ? 'field-error' : 'hint'} data-testid="inspector-message">
        {message?.text ?? ''}
      </p>
    </div>
  );
}

/**
 * The URL inspector: one URL's whole story in a side panel (landmark "URL inspector"), opened by
 * any table's row (Enter or click) and by URLs inside it; Back and Forward walk the inspected
 * URLs, Escape closes it and gives focus back to where it was.
 */
export function UrlInspector() {
  const urlId = useStore((s) => s.inspectedUrlId);
  const crawlId = useStore((s) => s.crawlId);
  const canGoBack = useStore((s) => s.inspectorPosition > 0);
  const canGoForward = useStore((s) => s.inspectorPosition >= 0 && s.inspectorPosition < s.inspectorHistory.length - 1);
  const inspectPrevious = useStore((s) => s.inspectPrevious);
  const inspectNext = useStore((s) => s.inspectNext);
  const closeInspector = useStore((s) => s.closeInspector);
  const [inspection, setInspection] = useState<UrlInspection | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reload, setReload] = useState(0);
  const panelRef = useRef<HTMLElement>(null);
  const openerRef = useRef<Element | null>(null);

  const close = useCallback(() => {
    closeInspector();
    const opener = openerRef.current;
    openerRef.current = null;
    if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
  }, [closeInspector]);

  // Another crawl opened: its URL ids name other URLs.
  const shownCrawl = useRef(crawlId);
  useEffect(() => {
    if (shownCrawl.current !== null && shownCrawl.current !== crawlId) close();
    shownCrawl.current = crawlId;
  }, [crawlId, close]);

  useEffect(() => {
    if (urlId === null) return;
    // Opened from outside (a table row): remember where focus was, and move it to the panel.
    if (!openerRef.current) {
      openerRef.current = document.activeElement;
      panelRef.current?.querySelector<HTMLElement>('h2')?.focus();
    }
  }, [urlId]);

  useEffect(() => {
    setError(null);
    if (urlId === null || crawlId === null) {
      setInspection(null);
      return;
    }
    let current = true;
    void api['urls.inspect']({ crawlId, urlId }).then((result) => {
      if (!current) return;
      if (result.ok) {
        setInspection(result.value);
        panelRef.current?.querySelector<HTMLElement>('.inspector-body')?.scrollTo?.({ top: 0 });
      } else {
        setInspection(null);
        setError(result.error.message);
      }
    });
    return () => {
      current = false;
    };
  }, [urlId, crawlId, reload]);

  useEffect(() => {
    if (urlId === null) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) {
        event.preventDefault();
        close();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [urlId, close]);

  if (urlId === null) return null;
  return (
    <aside ref={panelRef} className="inspector" aria-label="URL inspector">
      <header className="inspector-header">
        <h2 tabIndex={-1}>URL inspector</h2>
        <div className="buttons">
          <button type="button" onClick={inspectPrevious} disabled={!canGoBack} aria-label="Back" title="The URL inspected before">
            ← Back
          </button>
          <button type="button" onClick={inspectNext} disabled={!canGoForward} aria-label="Forward" title="The URL inspected after">
            Forward →
          </button>
          <button type="button" onClick={close} aria-label="Close inspector" title="Close (Escape)">
            ✕
          </button>
        </div>
      </header>
      {crawlId === null ? <p className="muted">Open a crawl to inspect its URLs.</p> : null}
      {error ? <p className="field-error">{error}</p> : null}
      {inspection && inspection.urlId === urlId ? (
        <div className="inspector-body">
          <p className="inspector-url" data-testid="inspector-url">
            {inspection.url}
          </p>
          <Actions inspection={inspection} onChanged={() => setReload((n) => n + 1)} />
          <NamesSection inspection={inspection} />
          <ResponseSection inspection={inspection} />
          <RedirectSection inspection={inspection} />
          <RobotsSection inspection={inspection} />
          <TimelineSection inspection={inspection} />
          <InlinksSection inspection={inspection} />
          <OutlinksSection inspection={inspection} />
          <DuplicatesSection inspection={inspection} />
        </div>
      ) : !error ? (
        <p className="muted">Loading…</p>
      ) : null}
    </aside>
  );
}
