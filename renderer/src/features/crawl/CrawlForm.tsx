import { useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { CRAWL_SCOPES, DEFAULT_CRAWL_SETTINGS } from '../../../../shared/types/crawl';
import { FieldError } from '../../components/FieldError';
import { useStore } from '../../store';
import { formValuesFrom, readCrawlForm, type CrawlFormField, type CrawlFormValues, type FormErrors } from './settings-form';

const SCOPE_LABELS: Record<string, string> = { host: 'host', domain: 'registrable domain', directory: 'directory', any: 'any' };

/** Main's error codes that belong to a field. */
const FIELD_OF_CODE: Record<string, CrawlFormField> = { INVALID_SEED: 'seeds' };

/** Seed entry, the collapsible "Crawl settings" and the Start / Pause / Resume / Stop buttons. */
export function CrawlForm() {
  const { info, starting, crawlError, progress, opened } = useStore(
    useShallow((s) => ({ info: s.info, starting: s.starting, crawlError: s.crawlError, progress: s.progress, opened: s.opened })),
  );
  const startCrawl = useStore((s) => s.startCrawl);
  const pauseCrawl = useStore((s) => s.pauseCrawl);
  const resumeCrawl = useStore((s) => s.resumeCrawl);
  const stopCrawl = useStore((s) => s.stopCrawl);
  const [values, setValues] = useState<CrawlFormValues | null>(null);
  const [errors, setErrors] = useState<FormErrors>({});
  const details = useRef<HTMLDetailsElement>(null);

  useEffect(() => {
    if (info && values === null) setValues(formValuesFrom(info.defaultSettings));
  }, [info, values]);

  // Until app.getInfo answers: the built-in defaults (no user agent yet: the app's may differ).
  const form = values ?? formValuesFrom({ ...DEFAULT_CRAWL_SETTINGS, userAgent: '' });
  const status = progress?.status ?? opened?.summary.status ?? null;
  const running = status === 'running' || starting;
  const resumable = !running && (status === 'paused' || status === 'stopped' || status === 'interrupted');
  const set = (field: keyof CrawlFormValues) => (event: { target: { value: string } }) => setValues({ ...form, [field]: event.target.value });
  const serverField = crawlError ? FIELD_OF_CODE[crawlError.code] : undefined;
  const fieldError = (field: CrawlFormField) => errors[field] ?? (serverField === field ? crawlError?.message : undefined);
  const invalid = (field: CrawlFormField) => (fieldError(field) ? true : undefined);

  const onStart = async (event: React.FormEvent) => {
    event.preventDefault();
    const read = readCrawlForm(form);
    if (!read.ok) {
      setErrors(read.errors);
      if (Object.keys(read.errors).some((field) => field !== 'seeds') && details.current) details.current.open = true;
      return;
    }
    setErrors({});
    await startCrawl(read.seeds, read.settings);
  };

  const field = (id: string, name: CrawlFormField, label: string, input: React.ReactNode) => (
    <>
      <label htmlFor={id}>{label}</label>
      <div className="field">
        {input}
        <FieldError id={`${id}-error`} message={fieldError(name)} />
      </div>
    </>
  );
  const numberInput = (id: string, name: 'threads' | 'maxPages' | 'maxDepth' | 'minDelayMs') => (
    <input id={id} inputMode="numeric" value={form[name]} onChange={set(name)} aria-invalid={invalid(name)} aria-describedby={fieldError(name) ? `${id}-error` : undefined} />
  );

  return (
    <form onSubmit={onStart} className="crawl-form" noValidate>
      <label htmlFor="seed-url">Seed URL</label>
      <div className="field">
        <textarea
          id="seed-url"
          rows={2}
          value={form.seeds}
          onChange={set('seeds')}
          placeholder="https://example.com/ (one per line)"
          aria-invalid={invalid('seeds')}
          aria-describedby={fieldError('seeds') ? 'seed-url-error' : undefined}
        />
        <FieldError id="seed-url-error" message={fieldError('seeds')} />
      </div>
      <details className="settings" ref={details}>
        <summary>Crawl settings</summary>
        <div className="settings-grid">
          {field('threads', 'threads', 'Threads', numberInput('threads', 'threads'))}
          {field('max-pages', 'maxPages', 'Max pages (0 = no limit)', numberInput('max-pages', 'maxPages'))}
          {field('max-depth', 'maxDepth', 'Max depth (0 = no limit)', numberInput('max-depth', 'maxDepth'))}
          {field(
            'scope',
            'scope',
            'Scope',
            <select id="scope" value={form.scope} onChange={set('scope')} aria-invalid={invalid('scope')}>
              {CRAWL_SCOPES.map((scope) => (
                <option key={scope} value={scope}>
                  {SCOPE_LABELS[scope]}
                </option>
              ))}
            </select>,
          )}
          {field('min-delay', 'minDelayMs', 'Politeness delay (ms)', numberInput('min-delay', 'minDelayMs'))}
          {field('user-agent', 'userAgent', 'User agent', <input id="user-agent" value={form.userAgent} onChange={set('userAgent')} aria-invalid={invalid('userAgent')} />)}
          <span />
          <label className="check">
            <input type="checkbox" checked={form.obeyRobots} onChange={(event) => setValues({ ...form, obeyRobots: event.target.checked })} /> Obey robots.txt
          </label>
          {field(
            'host-overrides',
            'hostOverrides',
            'Host overrides',
            <textarea
              id="host-overrides"
              rows={2}
              value={form.hostOverrides}
              onChange={set('hostOverrides')}
              placeholder="host=127.0.0.1:8080 (one per line, like /etc/hosts)"
              aria-invalid={invalid('hostOverrides')}
            />,
          )}
        </div>
        {info && info.hostOverrides.length > 0 ? (
          <p className="hint">
            Command-line overrides apply too: {info.hostOverrides.map((o) => `${o.host}=${o.address}${o.port ? `:${o.port}` : ''}`).join(', ')}
            {info.closedResolver ? ' (closed: other hosts are refused)' : ''}
          </p>
        ) : null}
      </details>
      <div className="buttons">
        <button type="submit" disabled={running}>
          Start crawl
        </button>
        <button type="button" onClick={() => void pauseCrawl()} disabled={status !== 'running'}>
          Pause
        </button>
        <button type="button" onClick={() => void resumeCrawl()} disabled={!resumable}>
          Resume
        </button>
        <button type="button" onClick={() => void stopCrawl()} disabled={status !== 'running' && status !== 'paused'}>
          Stop
        </button>
        <FieldError id="start-error" message={crawlError && !serverField ? crawlError.message : undefined} />
      </div>
    </form>
  );
}
