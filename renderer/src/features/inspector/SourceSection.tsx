import { useEffect, useState } from 'react';
import type { PageSource, UrlInspection } from '../../../../shared/ipc/inspector-view';
import { api } from '../../ipc/client';
import { formatBytes, Section } from './sections';

/**
 * Source: the URL's stored body (issue 14 part 1), read on demand ("Show source"), never with the
 * inspection itself: a body can be megabytes. Shows its size as kept and stored, its digest and
 * the decoded text (the first 2 MiB), or why no body is kept.
 */
export function SourceSection({ inspection }: { inspection: UrlInspection }) {
  const [source, setSource] = useState<PageSource | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  // Another URL inspected: its source is not this one's.
  useEffect(() => {
    setSource(null);
    setError(null);
  }, [inspection.crawlId, inspection.urlId]);

  const load = () => {
    setLoading(true);
    setError(null);
    void api['urls.source']({ crawlId: inspection.crawlId, urlId: inspection.urlId }).then((result) => {
      setLoading(false);
      if (result.ok) setSource(result.value);
      else setError(result.error.message);
    });
  };

  return (
    <Section title="Source">
      {source === null ? (
        <button type="button" onClick={load} disabled={loading}>
          {loading ? 'Reading…' : 'Show source'}
        </button>
      ) : source.stored ? (
        <>
          <dl className="facts">
            <dt>Kept</dt>
            <dd data-testid="source-size">
              {formatBytes(source.rawBytes)}, {formatBytes(source.storedBytes)} compressed{source.truncated ? ', cut at the size cap' : ''}
            </dd>
            <dt>Payload digest</dt>
            <dd className="url-text">{source.payloadDigest}</dd>
            {source.charset ? (
              <>
                <dt>Decoded as</dt>
                <dd>{source.charset}</dd>
              </>
            ) : null}
          </dl>
          {source.binary ? (
            <p className="muted">Not text ({source.contentType ?? 'no Content-Type'}): only its size and digest are shown.</p>
          ) : (
            <>
              {source.shownBytes < source.rawBytes ? <p className="muted">The first {formatBytes(source.shownBytes)} are shown.</p> : null}
              <pre className="page-source" data-testid="page-source" tabIndex={0} aria-label="Page source">
                {source.text}
              </pre>
            </>
          )}
        </>
      ) : (
        <p className="muted" data-testid="source-missing">
          {source.reason}
        </p>
      )}
      {error ? <p className="field-error">{error}</p> : null}
    </Section>
  );
}
