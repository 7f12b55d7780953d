import { useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { ExportFormat, ExportKind } from '../../../../shared/ipc/views';
import { FieldError } from '../../components/FieldError';
import { formatCount } from '../../components/format';
import { useStore } from '../../store';

const KINDS: { value: ExportKind; label: string }[] = [
  { value: 'pages', label: 'Pages fetched (one row per fetched URL)' },
  { value: 'frontier', label: 'Frontier (every URL)' },
  { value: 'errors', label: 'Errors (URLs in state error, with the reason)' },
  { value: 'urlGroups', label: 'URL groups' },
  { value: 'contentGroups', label: 'Content groups' },
  { value: 'versions', label: 'Versions (pages across software versions)' },
  { value: 'traps', label: 'Crawler traps (suspected patterns, detector, URLs held)' },
  { value: 'sitemapReport', label: 'Sitemap report (orphans, listed but not indexable, non-canonical variants)' },
];

/** The suggested file for an export. */
function suggestedFile(folder: string, crawlId: number, kind: ExportKind, format: ExportFormat): string {
  const separator = folder.includes('\\') && !folder.includes('/') ? '\\' : '/';
  return `${folder.replace(/[\\/]+$/, '')}${separator}crawl-${crawlId}-${kind}.${format}`;
}

/**
 * Export of the open crawl to CSV or JSONL. The file is written by main to the path in "Export
 * file" (browser mode has no native save dialog; the folder must exist), with a progress bar;
 * in Electron, "Show in folder" then opens the file manager on it.
 */
export function ExportPanel() {
  const { crawlId, info, current, error } = useStore(useShallow((s) => ({ crawlId: s.crawlId, info: s.info, current: s.currentExport, error: s.exportError })));
  const startExport = useStore((s) => s.startExport);
  const showExportInFolder = useStore((s) => s.showExportInFolder);
  const [kind, setKind] = useState<ExportKind>('pages');
  const [format, setFormat] = useState<ExportFormat>('csv');
  const [file, setFile] = useState('');
  const [edited, setEdited] = useState(false);
  useEffect(() => {
    if (!edited && info && crawlId !== null) setFile(suggestedFile(info.exportFolder, crawlId, kind, format));
  }, [edited, info, crawlId, kind, format]);
  if (crawlId === null) return null;
  const running = current?.state === 'running';
  const percent = current && current.totalRows > 0 ? Math.floor((current.rowsWritten / current.totalRows) * 100) : current?.state === 'done' ? 100 : 0;

  return (
    <section className="export" aria-label="Export">
      <h2>Export crawl #{crawlId}</h2>
      <div className="export-form">
        <label htmlFor="export-kind">Export what</label>
        <select id="export-kind" value={kind} onChange={(event) => setKind(event.target.value as ExportKind)}>
          {KINDS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <label htmlFor="export-format">Format</label>
        <select id="export-format" value={format} onChange={(event) => setFormat(event.target.value as ExportFormat)}>
          <option value="csv">CSV</option>
          <option value="jsonl">JSONL</option>
        </select>
        <label htmlFor="export-file">Export file</label>
        <div className="field">
          <input
            id="export-file"
            value={file}
            onChange={(event) => {
              setFile(event.target.value);
              setEdited(true);
            }}
            aria-describedby="export-file-hint"
          />
          <span id="export-file-hint" className="hint">
            Absolute path; the folder must exist and the file must not.
          </span>
          <FieldError id="export-error" message={error} />
        </div>
        <button type="button" onClick={() => void startExport({ kind, format, file: file.trim() })} disabled={running || file.trim() === ''}>
          Export
        </button>
      </div>
      {current ? (
        <div className="progress-row">
          <div role="progressbar" aria-label="Export progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="progressbar">
            <div className="progressbar-fill" style={{ width: `${percent}%` }} />
          </div>
          <span className="progress-text" data-testid="export-status">
            {current.state === 'done'
              ? `Wrote ${formatCount(current.rowsWritten, 'row')} to ${current.file}`
              : current.state === 'failed'
                ? (current.error?.message ?? 'Export failed')
                : `${current.rowsWritten} of ${formatCount(current.totalRows, 'row')}`}
          </span>
          {current.state === 'done' && info?.mode === 'electron' ? (
            <button type="button" onClick={() => void showExportInFolder()}>
              Show in folder
            </button>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
