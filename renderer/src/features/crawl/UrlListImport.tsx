import { useRef, useState } from 'react';
import { parseUrlList } from '../../../../shared/url/url-list';
import { FieldError } from '../../components/FieldError';
import { formatCount } from '../../components/format';

/**
 * "Import URL list…": reads a text file (one URL a line, `#` comment lines; the format of
 * `crawlbench crawl --list FILE`, parsed by the same shared/url/url-list.ts) with the File API, so
 * it works in Electron and in browser mode alike, and hands the URLs to the form, which puts them
 * in the seed box and switches to list mode. A bad line is shown by its number; nothing is filled.
 */
export function UrlListImport({ onImport }: { onImport: (urls: string[]) => void }) {
  const fileInput = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    const read = parseUrlList(await file.text());
    if (fileInput.current) fileInput.current.value = '';
    if (!read.ok) {
      setMessage(null);
      setError(`${file.name}: ${read.error.message}`);
      return;
    }
    setError(null);
    setMessage(`Imported ${formatCount(read.value.length, 'URL', 'URLs')} from ${file.name}: list mode fetches exactly these`);
    onImport(read.value);
  };

  return (
    <div className="url-list-import">
      <button type="button" onClick={() => fileInput.current?.click()}>
        Import URL list…
      </button>
      <input ref={fileInput} type="file" accept=".txt,.csv,.lst,text/plain" hidden onChange={(event) => void onFile(event.target.files?.[0])} aria-label="URL list file" />
      {message ? (
        <span className="hint" role="status">
          {message}
        </span>
      ) : null}
      <FieldError id="url-list-error" message={error} />
    </div>
  );
}
