import { useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { extractorText, type Extractor } from '../../../../shared/types/extraction';
import { FieldError } from '../../components/FieldError';
import { formatCount } from '../../components/format';
import { useStore } from '../../store';

const NO_EXTRACTORS: readonly Extractor[] = [];

/** The lines of a textarea to send: trailing blank lines dropped (blank lines inside are skipped by main, and keep line numbers right). */
function extractorLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  while (lines.length > 0 && lines.at(-1)!.trim() === '') lines.pop();
  return lines;
}

/**
 * "Re-run extractors" (issue 14 part 2): the open crawl's extractors as lines (the crawl form's
 * `NAME[:first|all|count]=css:SELECTOR[@attr]`, `regex:PATTERN`, `schema:TYPE.FIELD`), to edit and
 * run again over the crawl's stored bodies without a fetch, with a progress bar. A line main
 * refuses is named under the text (INVALID_EXTRACTOR); when the re-run is done the Pages table's
 * extracted columns show the new values.
 */
export function ExtractorPanel() {
  const { crawlId, extractors, current, error, crawling } = useStore(
    useShallow((s) => ({
      crawlId: s.crawlId,
      extractors: s.opened?.summary.settings.extractors ?? NO_EXTRACTORS,
      current: s.extraction,
      error: s.extractionError,
      crawling: s.progress?.status === 'running',
    })),
  );
  const startExtraction = useStore((s) => s.startExtraction);
  const saved = extractors.map(extractorText).join('\n');
  const [text, setText] = useState(saved);
  useEffect(() => setText(saved), [crawlId, saved]);
  if (crawlId === null) return null;
  const mine = current !== null && current.crawlId === crawlId ? current : null;
  const running = mine?.state === 'running';
  const percent = mine === null ? 0 : mine.state === 'done' ? 100 : mine.total > 0 ? Math.floor((mine.done / mine.total) * 100) : 0;
  return (
    <details className="extractor-panel">
      <summary>Extractors{extractors.length > 0 ? ` (${extractors.length})` : ''}</summary>
      <div className="field">
        <label htmlFor="extractor-lines">Extractors to re-run over the stored pages, one per line</label>
        <textarea
          id="extractor-lines"
          rows={Math.min(8, Math.max(3, text.split('\n').length + 1))}
          value={text}
          spellCheck={false}
          placeholder="price=css:.price · sku=regex:SKU-([0-9]+) · brand=schema:Product.brand.name · images:count=css:img"
          aria-invalid={error?.code === 'INVALID_EXTRACTOR' ? true : undefined}
          aria-describedby="extractor-hint extractor-error"
          onChange={(event) => setText(event.target.value)}
        />
        <span id="extractor-hint" className="hint">
          Runs on every stored HTML body of crawl #{crawlId}, without fetching; the values replace the old ones and these become the crawl&apos;s extractors. No extractor: the values are dropped.
        </span>
        <FieldError id="extractor-error" message={error ? `${error.code}: ${error.message}` : null} />
      </div>
      <div className="progress-row">
        <button type="button" disabled={running || crawling} title={crawling ? 'Pause or stop the crawl first' : undefined} onClick={() => void startExtraction(extractorLines(text))}>
          Run extractors
        </button>
        {mine ? (
          <>
            <div role="progressbar" aria-label="Extraction progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="progressbar">
              <div className="progressbar-fill" style={{ width: `${percent}%` }} />
            </div>
            <span className="progress-text" data-testid="extraction-status">
              {mine.state === 'done'
                ? `Ran ${formatCount(mine.extractors.length, 'extractor')} on ${formatCount(mine.pages, 'page')} in ${(mine.ms / 1000).toFixed(1)} s, no fetch`
                : mine.state === 'failed'
                  ? `${mine.error?.code ?? 'FAILED'}: ${mine.error?.message ?? 'the re-run failed'}`
                  : `${mine.done} of ${formatCount(mine.total, 'stored page')}`}
            </span>
          </>
        ) : null}
      </div>
    </details>
  );
}
