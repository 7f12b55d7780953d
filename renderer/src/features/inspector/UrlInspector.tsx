import { useCallback, useEffect, useRef, useState } from 'react';
import type { UrlInspection } from '../../../../shared/ipc/inspector-view';
import { api } from '../../ipc/client';
import { useStore } from '../../store';
import { InspectorActions } from './InspectorActions';
import { InlinksSection, OutlinksSection } from './link-sections';
import { SourceSection } from './SourceSection';
import { DuplicatesSection, ExtractedSection, NamesSection, RedirectSection, RenderSection, ResponseSection, RobotsSection, SourcesSection, TimelineSection } from './sections';

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
          <InspectorActions inspection={inspection} onChanged={() => setReload((n) => n + 1)} />
          <NamesSection inspection={inspection} />
          <SourcesSection inspection={inspection} />
          <ResponseSection inspection={inspection} />
          <SourceSection inspection={inspection} />
          <ExtractedSection inspection={inspection} />
          <RenderSection inspection={inspection} />
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
