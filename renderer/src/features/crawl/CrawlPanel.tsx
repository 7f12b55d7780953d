import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../../store';
import { readCrawlForm, type CrawlFormValues, type FormErrors } from './settings-form';
import { RateChart } from './RateChart';

function Counter({ label, value }: { label: string; value: number | string }) {
  return (
    <div className="counter" role="group" aria-label={label}>
      <span className="counter-value" data-testid={`counter-${label.replace(/\s+/g, '-').toLowerCase()}`}>
        {value}
      </span>
      <span className="counter-label">{label}</span>
    </div>
  );
}

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <span id={id} className="field-error" role="alert">
      {message}
    </span>
  ) : null;
}

function formatElapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** Seed entry, crawl settings, Start/Stop, live counters, progress bar and pages/s chart. */
export function CrawlPanel() {
  const { progress, starting, startError, rateHistory, info } = useStore(
    useShallow((s) => ({ progress: s.progress, starting: s.starting, startError: s.startError, rateHistory: s.rateHistory, info: s.info })),
  );
  const startCrawl = useStore((s) => s.startCrawl);
  const stopCrawl = useStore((s) => s.stopCrawl);
  const [values, setValues] = useState<CrawlFormValues>({ seeds: '', hostOverrides: '', threads: '4', maxPages: '0', minDelayMs: '0' });
  const [errors, setErrors] = useState<FormErrors>({});
  const running = progress?.status === 'running' || starting;
  const set = (field: keyof CrawlFormValues) => (event: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: event.target.value }));

  const onStart = async (event: React.FormEvent) => {
    event.preventDefault();
    const form = readCrawlForm(values);
    if (!form.ok) {
      setErrors(form.errors);
      return;
    }
    setErrors({});
    await startCrawl(form.seeds, form.settings);
  };

  const fetched = progress?.fetched ?? 0;
  const total = fetched + (progress?.queued ?? 0) + (progress?.inFlight ?? 0) + (progress?.errors ?? 0);
  const done = fetched + (progress?.errors ?? 0);
  const percent = total === 0 ? 0 : Math.round((done / total) * 100);

  return (
    <section className="panel" aria-label="Crawl">
      <form onSubmit={onStart} className="crawl-form" noValidate>
        <label htmlFor="seed-url">Seed URL</label>
        <textarea
          id="seed-url"
          rows={2}
          value={values.seeds}
          onChange={set('seeds')}
          placeholder="https://example.com/ (one per line)"
          aria-invalid={errors.seeds ? true : undefined}
          aria-describedby={errors.seeds ? 'seed-url-error' : undefined}
        />
        <FieldError id="seed-url-error" message={errors.seeds} />
        <details className="settings">
          <summary>Crawl settings</summary>
          <div className="settings-grid">
            <label htmlFor="threads">Threads</label>
            <input id="threads" inputMode="numeric" value={values.threads} onChange={set('threads')} aria-invalid={errors.threads ? true : undefined} />
            <FieldError id="threads-error" message={errors.threads} />
            <label htmlFor="max-pages">Max pages (0 = no limit)</label>
            <input id="max-pages" inputMode="numeric" value={values.maxPages} onChange={set('maxPages')} aria-invalid={errors.maxPages ? true : undefined} />
            <FieldError id="max-pages-error" message={errors.maxPages} />
            <label htmlFor="min-delay">Politeness delay (ms)</label>
            <input id="min-delay" inputMode="numeric" value={values.minDelayMs} onChange={set('minDelayMs')} aria-invalid={errors.minDelayMs ? true : undefined} />
            <FieldError id="min-delay-error" message={errors.minDelayMs} />
            <label htmlFor="host-overrides">Host overrides</label>
            <textarea
              id="host-overrides"
              rows={2}
              value={values.hostOverrides}
              onChange={set('hostOverrides')}
              placeholder="host=127.0.0.1:8080 (one per line, like /etc/hosts)"
              aria-invalid={errors.hostOverrides ? true : undefined}
            />
            <FieldError id="host-overrides-error" message={errors.hostOverrides} />
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
          <button type="button" onClick={() => void stopCrawl()} disabled={!running}>
            Stop
          </button>
          <FieldError id="start-error" message={startError ?? undefined} />
        </div>
      </form>

      <div className="counters">
        <Counter label="Fetched" value={fetched} />
        <Counter label="Queued" value={progress?.queued ?? 0} />
        <Counter label="In flight" value={progress?.inFlight ?? 0} />
        <Counter label="Errors" value={progress?.errors ?? 0} />
        <Counter label="Pages per second" value={progress?.pagesPerSecond ?? 0} />
        <Counter label="Elapsed" value={formatElapsed(progress?.elapsedMs ?? 0)} />
        <Counter label="Status" value={progress?.status ?? 'idle'} />
      </div>
      <div className="progress-row">
        <div role="progressbar" aria-label="Crawl progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="progressbar">
          <div className="progressbar-fill" style={{ width: `${percent}%` }} />
        </div>
        <span className="progress-text">{percent}%</span>
      </div>
      <RateChart samples={rateHistory} />
    </section>
  );
}
