import { useEffect, useState } from 'react';
import type { UrlInspection } from '../../../../shared/ipc/inspector-view';
import { api } from '../../ipc/client';
import { useStore } from '../../store';

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

/** The inspector's actions: copy URL, open it, re-fetch now, exclude URLs like this; what happened in a status line. */
export function InspectorActions({ inspection, onChanged }: { inspection: UrlInspection; onChanged: () => void }) {
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

