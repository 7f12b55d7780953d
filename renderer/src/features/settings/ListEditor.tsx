import { useVirtualizer } from '@tanstack/react-virtual';
import { useId, useRef, useState, type ReactNode } from 'react';
import { downloadText, formatCount } from '../../components/format';
import { FieldError } from '../../components/FieldError';
import { importEntries, type EntryValidator } from './list-entries';

/** Props of {@link ListEditor}. */
export interface ListEditorProps {
  /** Accessible name of the group and of its entry textbox ("Additional TLDs"). */
  label: string;
  entries: readonly string[];
  onChange(entries: string[]): void;
  problem: EntryValidator;
  defaults: readonly string[];
  /** File name and text of "Export". */
  exportFile: { name: string; text(entries: readonly string[]): string };
  placeholder?: string;
  /** More actions (e.g. "Import Public Suffix List"). */
  children?: ReactNode;
  /** A message from an action outside the editor (e.g. the PSL import's outcome). */
  notice?: string | null;
}

const ROW_HEIGHT = 26;

/**
 * A validated list editor: add (Enter or "Add"), remove, import a file, export, reset to defaults.
 * A bad entry gets an inline error and is not added. The list is virtualised, so a list of
 * thousands (the Public Suffix List) stays light.
 */
export function ListEditor({ label, entries, onChange, problem, defaults, exportFile, placeholder, children, notice }: ListEditorProps) {
  const id = useId();
  const [entry, setEntry] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: entries.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 8 });

  const add = () => {
    const value = entry.trim();
    const why = problem(value);
    if (why !== null) {
      setError(`"${entry}" ${why}`);
      return;
    }
    if (entries.includes(value)) {
      setError(`"${value}" is already in the list`);
      return;
    }
    onChange([...entries, value]);
    setEntry('');
    setError(null);
    setMessage(`Added "${value}"`);
  };

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    const { added, rejected } = importEntries(await file.text(), entries, problem);
    onChange([...entries, ...added]);
    setError(rejected.length > 0 ? `${formatCount(rejected.length, 'entry', 'entries')} skipped: ${rejected.slice(0, 3).join('; ')}` : null);
    setMessage(`Imported ${formatCount(added.length, 'entry', 'entries')} from ${file.name}`);
    if (fileInput.current) fileInput.current.value = '';
  };

  return (
    <div role="group" aria-label={label} className="list-editor">
      <h3 id={`${id}-title`}>{label}</h3>
      <div className="list-entry">
        <input
          aria-label={label}
          value={entry}
          placeholder={placeholder}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => {
            setEntry(event.target.value);
            setError(null);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              add();
            }
          }}
        />
        <button type="button" onClick={add} aria-label={`Add to ${label}`}>
          Add
        </button>
      </div>
      <FieldError id={`${id}-error`} message={error} />
      <div className="list-actions">
        <button type="button" onClick={() => fileInput.current?.click()} aria-label={`Import a file into ${label}`}>
          Import file
        </button>
        <input ref={fileInput} type="file" accept=".txt,.dat,.csv,text/plain" hidden onChange={(event) => void onFile(event.target.files?.[0])} aria-label={`${label} file`} />
        <button type="button" onClick={() => downloadText(exportFile.name, exportFile.text(entries))} aria-label={`Export ${label}`}>
          Export
        </button>
        <button
          type="button"
          onClick={() => {
            onChange([...defaults]);
            setError(null);
            setMessage('Reset to the defaults');
          }}
          aria-label={`Reset ${label} to defaults`}
        >
          Reset to defaults
        </button>
        {children}
      </div>
      <p className="hint" aria-live="polite">
        {formatCount(entries.length, 'entry', 'entries')}{notice ?? message ? ` · ${notice ?? message}` : ''}
      </p>
      <div ref={scrollRef} className="list-scroll">
        <ul aria-label={`${label} entries`} style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const value = entries[item.index]!;
            return (
              <li key={value} style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}>
                <span>{value}</span>
                <button type="button" className="remove" aria-label={`Remove ${value}`} onClick={() => onChange(entries.filter((e) => e !== value))}>
                  ×
                </button>
              </li>
            );
          })}
        </ul>
      </div>
    </div>
  );
}
