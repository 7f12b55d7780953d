import { useCallback, useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { CHANGE_KIND_LABELS, CHANGE_KINDS, type ChangeRow, type ComparisonSummary } from '../../../../shared/types/comparison';
import type { CrawlSummary } from '../../../../shared/types/crawl';
import { FieldError } from '../../components/FieldError';
import { VirtualTable, type Column } from '../../components/VirtualTable';
import { formatCount, formatTime } from '../../components/format';
import { useDebounced } from '../../hooks/use-debounced';
import { usePagedRows } from '../../hooks/use-paged-rows';
import { api } from '../../ipc/client';
import { useStore } from '../../store';
import { changeValues, inspectTarget } from './change-cells';

/** A crawl in a chooser: its id, first seed and start time. */
function crawlLabel(crawl: CrawlSummary): string {
  const more = crawl.seeds.length > 1 ? ` (+${crawl.seeds.length - 1})` : '';
  return `#${crawl.id} ${crawl.seeds[0] ?? ''}${more} · ${formatTime(crawl.createdAtMs)} · ${crawl.status}`;
}

/** One side of the comparison in words. */
function sideText(label: string, side: ComparisonSummary['before']): string {
  return `${label} crawl ${side.crawlId}${side.file ? ` of ${side.file}` : ''} (${formatCount(side.urls, 'settled URL')}, ${formatTime(side.createdAtMs)})`;
}

/** The chooser of the two crawls: before and after from the crawl list, or after from another database file. */
function CompareForm({ crawls }: { crawls: CrawlSummary[] }) {
  const { choice, comparing, error } = useStore(useShallow((s) => ({ choice: s.compareChoice, comparing: s.comparing, error: s.compareError })));
  const setChoice = useStore((s) => s.setCompareChoice);
  const runComparison = useStore((s) => s.runComparison);
  const otherFile = choice.afterFile.trim() !== '';
  const ready = choice.beforeCrawlId !== null && (otherFile || choice.afterCrawlId !== null);
  const crawlOptions = crawls.map((crawl) => (
    <option key={crawl.id} value={crawl.id}>
      {crawlLabel(crawl)}
    </option>
  ));
  return (
    <form
      className="compare-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (ready) void runComparison();
      }}
    >
      <label htmlFor="compare-before">Before</label>
      <select id="compare-before" value={choice.beforeCrawlId ?? ''} onChange={(event) => setChoice({ beforeCrawlId: event.target.value === '' ? null : Number(event.target.value) })}>
        <option value="">Choose a crawl</option>
        {crawlOptions}
      </select>
      <label htmlFor="compare-after">After</label>
      {otherFile ? (
        <input
          id="compare-after"
          type="number"
          min={1}
          value={choice.afterCrawlId ?? ''}
          placeholder="newest crawl of the file"
          onChange={(event) => setChoice({ afterCrawlId: event.target.value === '' ? null : Number(event.target.value) })}
        />
      ) : (
        <select id="compare-after" value={choice.afterCrawlId ?? ''} onChange={(event) => setChoice({ afterCrawlId: event.target.value === '' ? null : Number(event.target.value) })}>
          <option value="">Choose a crawl</option>
          {crawlOptions}
        </select>
      )}
      <label htmlFor="compare-file">After crawl from another database file</label>
      <div className="field">
        <input
          id="compare-file"
          value={choice.afterFile}
          placeholder="/absolute/path/other.db (empty: this database)"
          aria-describedby="compare-file-hint"
          onChange={(event) => setChoice({ afterFile: event.target.value, ...(event.target.value.trim() !== '' && !otherFile ? { afterCrawlId: null } : {}) })}
        />
        <span id="compare-file-hint" className="hint">
          Optional. Absolute path of a Crawlbench database; with it, After is a crawl id of that file (empty: its newest crawl).
        </span>
      </div>
      <div className="buttons">
        <button type="submit" disabled={!ready || comparing}>
          {comparing ? 'Comparing…' : 'Compare'}
        </button>
        <FieldError id="compare-error" message={error ? `${error.code}: ${error.message}` : null} />
      </div>
    </form>
  );
}

/** The count of each kind of change, as buttons that filter the table to that kind. */
function KindCounts({ summary }: { summary: ComparisonSummary }) {
  const kind = useStore((s) => s.compareKind);
  const setFilter = useStore((s) => s.setCompareFilter);
  return (
    <div className="compare-counts" role="group" aria-label="Changes by kind">
      <button type="button" aria-pressed={kind === null} onClick={() => setFilter({ kind: null })} data-testid="compare-count-all">
        All <span className="count">{summary.total}</span>
      </button>
      {CHANGE_KINDS.map((name) => (
        <button key={name} type="button" aria-pressed={kind === name} title={CHANGE_KIND_LABELS[name]} onClick={() => setFilter({ kind: kind === name ? null : name })} data-testid={`compare-count-${name}`}>
          {name} <span className="count">{summary.counts[name]}</span>
        </button>
      ))}
    </div>
  );
}

const COLUMNS: Column<ChangeRow>[] = [
  { key: 'url', header: 'URL', width: 'minmax(14rem, 2.4fr)', render: (row) => row.url, title: (row) => `${row.url}\nnormalized key ${row.normalizedKey}` },
  { key: 'kind', header: 'Change', width: '7.5rem', render: (row) => <span className={`change change-${row.kind}`}>{row.kind}</span>, title: (row) => CHANGE_KIND_LABELS[row.kind] },
  { key: 'before', header: 'Before', width: 'minmax(8rem, 1.5fr)', render: (row) => changeValues(row).before, title: (row) => changeValues(row).before },
  { key: 'after', header: 'After', width: 'minmax(8rem, 1.5fr)', render: (row) => changeValues(row).after, title: (row) => changeValues(row).after },
];

/** The kept comparison's changes, paged from main by the kind and URL filters; a row opens the URL inspector. */
function ChangesTable({ summary }: { summary: ComparisonSummary }) {
  const { kind, text } = useStore(useShallow((s) => ({ kind: s.compareKind, text: s.compareText })));
  const setFilter = useStore((s) => s.setCompareFilter);
  const urlContains = useDebounced(text);
  const [selected, setSelected] = useState<number | null>(null);
  const fetchPage = useCallback(
    async (offset: number, limit: number) =>
      api['compare.changes']({ comparisonId: summary.comparisonId, offset, limit, ...(kind === null ? {} : { kind }), ...(urlContains.trim() === '' ? {} : { urlContains: urlContains.trim() }) }),
    [summary.comparisonId, kind, urlContains],
  );
  const rows = usePagedRows({ queryKey: JSON.stringify([summary.comparisonId, kind, urlContains.trim()]), fetchPage });
  const inspect = useCallback(
    (row: ChangeRow) => {
      setSelected(row.index);
      const target = inspectTarget(row, summary);
      if (!target) return;
      const state = useStore.getState();
      // The inspector reads the open crawl: open the crawl that holds the URL first.
      void (state.crawlId === target.crawlId ? Promise.resolve(true) : state.openCrawl(target.crawlId)).then((opened) => opened && useStore.getState().inspectUrl(target.urlId));
    },
    [summary],
  );
  return (
    <>
      <div className="toolbar">
        <label htmlFor="compare-url">URL contains</label>
        <input id="compare-url" type="search" value={text} onChange={(event) => setFilter({ text: event.target.value })} placeholder="text" />
        <span className="row-count" data-testid="compare-total">
          {formatCount(rows.total, 'change')}
        </span>
      </div>
      <VirtualTable
        label="Changes"
        className="urls-table compare-table"
        columns={COLUMNS}
        source={rows}
        rowKey={(row) => row.index}
        onSelect={inspect}
        selectedKey={selected}
        emptyText={summary.total === 0 ? 'No changes between the two crawls' : 'No change matches'}
      />
      {rows.error ? <p className="field-error">{rows.error}</p> : null}
    </>
  );
}

/**
 * The Compare view (issue 14 part 7): two crawls, of this database or one of it and one of another
 * file, joined on the normalized key (so tracking parameters, case and slashes make no phantom
 * adds or removes); the count of each kind of change, and the changes, filtered and paged from
 * main (a comparison is kept there, never sent whole). A row opens the URL inspector on it.
 */
export function CompareView() {
  const openCrawlId = useStore((s) => s.crawlId);
  const summary = useStore((s) => s.comparison);
  const choice = useStore((s) => s.compareChoice);
  const setChoice = useStore((s) => s.setCompareChoice);
  const [crawls, setCrawls] = useState<CrawlSummary[]>([]);
  const [listError, setListError] = useState<string | null>(null);
  useEffect(() => {
    void api['crawl.list']({}).then((result) => {
      if (result.ok) setCrawls(result.value);
      else setListError(result.error.message);
    });
  }, [openCrawlId]);
  // First visit: the open crawl (else the newest) after, the crawl before it before.
  useEffect(() => {
    if (crawls.length === 0 || choice.beforeCrawlId !== null || choice.afterCrawlId !== null) return;
    const ids = crawls.map((crawl) => crawl.id).sort((a, b) => b - a);
    const after = openCrawlId !== null && ids.includes(openCrawlId) ? openCrawlId : ids[0]!;
    const before = ids.find((id) => id < after) ?? null;
    setChoice({ afterCrawlId: after, beforeCrawlId: before });
  }, [crawls, choice.beforeCrawlId, choice.afterCrawlId, openCrawlId, setChoice]);
  const heading = useMemo(
    () =>
      summary
        ? `${sideText('Before:', summary.before)} → ${sideText('after:', summary.after)}: ${formatCount(summary.total, 'change')}, ${formatCount(summary.common, 'URL')} in both, compared in ${summary.ms} ms`
        : null,
    [summary],
  );
  return (
    <section className="panel compare" aria-label="Compare crawls">
      <div className="toolbar">
        <h2>Compare crawls</h2>
      </div>
      {listError ? <p className="field-error">{listError}</p> : null}
      <CompareForm crawls={crawls} />
      {summary ? (
        <>
          <p className="compare-summary" data-testid="compare-summary">
            {heading}
          </p>
          {summary.rekeyed ? (
            <p className="muted">
              The crawls key URLs differently (profile {summary.before.profile} / {summary.after.profile}, DUST rules {summary.before.dustRules} / {summary.after.dustRules}): the after crawl&apos;s URLs were keyed
              again under the before crawl&apos;s identity{summary.foldedByRekey > 0 ? ` (${formatCount(summary.foldedByRekey, 'URL')} folded into another)` : ''}.
            </p>
          ) : null}
          <KindCounts summary={summary} />
          <ChangesTable summary={summary} />
        </>
      ) : (
        <p className="muted">Choose two crawls and compare them: URLs added and removed, status, title, content and redirect changes, new errors.</p>
      )}
    </section>
  );
}
