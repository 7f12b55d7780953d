import { useEffect, useState } from 'react';
import type { UrlAncestry } from '../../../../shared/types/overview';
import type { ErrorInfo } from '../../../../shared/types/result';
import { api } from '../../ipc/client';
import { useStore } from '../../store';

/**
 * The crawl tree of one URL (issue 11 part 5): which page discovered which, from the seed down to
 * `urlId` by discovered_from, each hop with its depth, status and the link its parent found it by
 * (kind and anchor text). Each URL opens the URL inspector. Reads the open crawl from the store,
 * so the URL inspector and the site tree can both mount it with a URL id alone.
 */
export function CrawlTree({ urlId }: { urlId: number }) {
  const crawlId = useStore((s) => s.crawlId);
  const [ancestry, setAncestry] = useState<UrlAncestry | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);
  useEffect(() => {
    setAncestry(null);
    setError(null);
    if (crawlId === null) return undefined;
    let current = true;
    void api['urls.ancestry']({ crawlId, urlId }).then((result) => {
      if (!current) return;
      if (result.ok) setAncestry(result.value);
      else setError(result.error);
    });
    return () => {
      current = false;
    };
  }, [crawlId, urlId]);

  if (error) {
    return (
      <p role="alert" className="field-error">
        The crawl tree could not be loaded: {error.message} ({error.code})
      </p>
    );
  }
  if (ancestry === null) return <p className="muted">Loading the crawl tree…</p>;
  return (
    <div className="crawl-tree">
      {ancestry.truncated ? <p className="hint">Longer than {ancestry.hops.length} hops: the first hops, back to the seed, are not shown.</p> : null}
      <ol aria-label="Crawl tree" className="crawl-tree-list">
        {ancestry.hops.map((hop, index) => (
          <li key={hop.urlId} style={{ marginLeft: `${Math.min(index, 12) * 12}px` }}>
            <span className="muted">{index === 0 && !ancestry.truncated ? 'seed' : `depth ${hop.depth}`}</span>{' '}
            <button type="button" className="link-button url" title="Open in the URL inspector" onClick={() => useStore.getState().inspectUrl(hop.urlId)}>
              {hop.url}
            </button>{' '}
            <span className="mono">{hop.httpStatus ?? hop.state}</span>
            {hop.linkKind ? (
              <span className="hint">
                {' '}
                found by {hop.linkKind === 'redirect' ? 'a redirect' : `a <${hop.linkKind}> link`}
                {hop.anchorText ? ` “${hop.anchorText}”` : ''}
              </span>
            ) : null}
          </li>
        ))}
      </ol>
    </div>
  );
}
