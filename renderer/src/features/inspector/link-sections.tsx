import { useEffect, useState } from 'react';
import { INSPECTOR_LINKS_PER_PAGE, type InlinkRow, type LinkPage, type OutlinkRow, type UrlInspection } from '../../../../shared/ipc/inspector-view';
import { linkRuleLabel } from '../../../../shared/types/link-rules';
import { api } from '../../ipc/client';
import { Section, UrlLink } from './sections';

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

/** Inlinks: pages linking here with anchor text, kind and rel, a window at a time. */
export function InlinksSection({ inspection }: { inspection: UrlInspection }) {
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

/** Outlinks: links on this page, refused ones with their rule in words, a window at a time. */
export function OutlinksSection({ inspection }: { inspection: UrlInspection }) {
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

