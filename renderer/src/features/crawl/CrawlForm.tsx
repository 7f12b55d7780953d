import { useEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { CRAWL_MODES, CRAWL_SCOPES, DEFAULT_CRAWL_SETTINGS, RENDER_MODES, SITEMAP_MODES } from '../../../../shared/types/crawl';
import { CRAWL_SETTINGS } from '../../../../shared/types/crawl-settings';
import { FieldError } from '../../components/FieldError';
import { useStore } from '../../store';
import {
  flagHint,
  FORM_GROUPS,
  FORM_SETTINGS,
  formValuesFrom,
  formValuesToRemember,
  readCrawlForm,
  REMEMBERED_FORM_KEY,
  withRememberedValues,
  type CrawlFormField,
  type CrawlFormValues,
  type FormErrors,
  type FormSetting,
} from './settings-form';
import { UrlListImport } from './UrlListImport';
import { RequestRulesEditor } from './request-rules-editor';
import { readRuleRows, type RequestRuleRow } from './request-rules-form';

const SCOPE_LABELS: Record<string, string> = { host: 'host', domain: 'registrable domain', directory: 'directory', any: 'any' };
const SITEMAP_LABELS: Record<string, string> = { auto: 'robots.txt Sitemap: lines and /sitemap.xml', off: 'off' };
const RENDER_LABELS: Record<string, string> = { off: 'off', auto: 'auto: pages that look script-built', always: 'always: every HTML page' };

/** The options of each choice field, with their labels. */
const CHOICES: Partial<Record<CrawlFormField, readonly { value: string; label: string }[]>> = {
  scope: CRAWL_SCOPES.map((scope) => ({ value: scope, label: SCOPE_LABELS[scope] ?? scope })),
  sitemaps: SITEMAP_MODES.map((mode) => ({ value: mode, label: SITEMAP_LABELS[mode] ?? mode })),
  render: RENDER_MODES.map((mode) => ({ value: mode, label: RENDER_LABELS[mode] ?? mode })),
  crawlMode: CRAWL_MODES.map((mode) => ({ value: mode, label: mode === 'spider' ? 'spider: follow links from the seeds' : 'list: fetch only the seeds (URL list)' })),
};

/** The mode is chosen beside the seeds (it says what the seed box means), not among the settings. */
const MODE_SETTING = FORM_SETTINGS.find((setting) => setting.key === 'crawlMode')!;

/** Main's error codes that belong to a field. */
const FIELD_OF_CODE: Record<string, CrawlFormField> = { INVALID_SEED: 'seeds' };

/** The form's last values from localStorage (null when none, or storage is unavailable). */
function readRemembered(): unknown {
  try {
    const text = localStorage.getItem(REMEMBERED_FORM_KEY);
    return text === null ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

function remember(values: CrawlFormValues, defaults: CrawlFormValues): void {
  try {
    localStorage.setItem(REMEMBERED_FORM_KEY, JSON.stringify(formValuesToRemember(values, defaults)));
  } catch {
    // Storage full or disabled: the form still works, it only forgets on reload.
  }
}

/** Moves focus to the crawl's status region, so a screen reader hears the crawl start. */
function focusStatus(): void {
  document.getElementById('crawl-status')?.focus();
}

/**
 * Seed entry, the collapsible "Crawl settings" (every setting, grouped, each naming its
 * `crawlbench crawl` flag, with the CLI's defaults; remembered across reloads, with "Reset to
 * defaults"), the collapsible "Request settings per host" (headers, cookie, Basic auth, proxy:
 * secrets, so never remembered, sent with the start and then forgotten; the open crawl's shown
 * masked) and the Start / Pause / Resume / Stop buttons. Ctrl+Enter (Cmd+Enter) in the seed box starts.
 */
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
  // Request rules with their secrets: in this component's state only (never remembered), until the start sends them.
  const [ruleRows, setRuleRows] = useState<RequestRuleRow[]>([]);
  const [showRuleErrors, setShowRuleErrors] = useState(false);
  const details = useRef<HTMLDetailsElement>(null);
  const rulesDetails = useRef<HTMLDetailsElement>(null);
  const formRef = useRef<HTMLFormElement>(null);

  // The app's effective defaults (saved Settings included); the command line's overrides apply
  // on main's side anyway, so the field holds only the form's own.
  const defaults = useMemo(() => (info ? formValuesFrom({ ...info.defaultSettings, hostOverrides: [] }) : null), [info]);
  useEffect(() => {
    if (defaults && values === null) setValues(withRememberedValues(defaults, readRemembered()));
  }, [defaults, values]);

  // Until app.getInfo answers: the built-in defaults (no user agent yet: the app's may differ).
  const form = values ?? formValuesFrom({ ...DEFAULT_CRAWL_SETTINGS, userAgent: '' });
  const update = (next: CrawlFormValues) => {
    setValues(next);
    if (defaults) remember(next, defaults);
  };
  const status = progress?.status ?? opened?.summary.status ?? null;
  const running = status === 'running' || starting;
  const resumable = !running && (status === 'paused' || status === 'stopped' || status === 'interrupted');
  const serverField = crawlError ? FIELD_OF_CODE[crawlError.code] : undefined;
  const fieldError = (field: CrawlFormField) => errors[field] ?? (serverField === field ? crawlError?.message : undefined);
  const invalid = (field: CrawlFormField) => (fieldError(field) ? true : undefined);
  const rules = useMemo(() => readRuleRows(ruleRows), [ruleRows]);
  const sentRules = opened?.summary.settings.requestRules ?? [];

  const onStart = async (event: React.FormEvent) => {
    event.preventDefault();
    if (running) return;
    const read = readCrawlForm(form);
    if (!read.ok || !rules.ok) {
      setErrors(read.ok ? {} : read.errors);
      if (!read.ok && Object.keys(read.errors).some((field) => field !== 'seeds') && details.current) details.current.open = true;
      if (!rules.ok) {
        setShowRuleErrors(true);
        if (rulesDetails.current) rulesDetails.current.open = true;
      }
      return;
    }
    setErrors({});
    if (await startCrawl(read.seeds, read.settings, rules.rules)) {
      // Sent and kept by main: the form lets go of the secrets (and the page holds none of them).
      setRuleRows([]);
      setShowRuleErrors(false);
      focusStatus();
    }
  };

  const onReset = () => {
    if (!defaults) return;
    // The seeds are not a setting: they stay.
    update({ ...defaults, seeds: form.seeds });
    setErrors({});
  };

  const input = (setting: FormSetting, id: string, describedBy: string | undefined) => {
    const { key } = setting;
    const value = form[key];
    const common = { id, 'aria-invalid': invalid(key), 'aria-describedby': describedBy };
    if (typeof value === 'boolean') {
      const lockedOn = key === 'closedResolver' && info?.closedResolver === true;
      return <input type="checkbox" {...common} checked={value || lockedOn} disabled={lockedOn} onChange={(event) => update({ ...form, [key]: event.target.checked })} />;
    }
    const onChange = (event: { target: { value: string } }) => update({ ...form, [key]: event.target.value });
    if (setting.kind === 'choice') {
      return (
        <select {...common} value={value} onChange={onChange}>
          {(CHOICES[key] ?? []).map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      );
    }
    if (setting.kind === 'lines') return <textarea {...common} rows={2} value={value} onChange={onChange} placeholder={setting.placeholder} />;
    return <input {...common} inputMode={setting.kind === 'number' ? 'decimal' : undefined} value={value} onChange={onChange} placeholder={setting.placeholder} />;
  };

  const field = (setting: FormSetting) => {
    const id = `setting-${setting.key}`;
    // The first fields keep the ids the e2e flows and older links use.
    const legacyId = LEGACY_IDS[setting.key] ?? id;
    const hint = flagHint(setting);
    const describedBy = [fieldError(setting.key) ? `${legacyId}-error` : '', `${legacyId}-hint`].filter(Boolean).join(' ');
    return (
      <div className={`setting${setting.kind === 'switch' ? ' setting-switch' : ''}`} key={setting.key}>
        <label htmlFor={legacyId}>{setting.label}</label>
        <div className="field">
          {input(setting, legacyId, describedBy)}
          <span id={`${legacyId}-hint`} className="hint" title={CRAWL_SETTINGS[setting.key].description}>
            {hint ? <code>{hint}</code> : 'app only'}
            {setting.key === 'closedResolver' && info?.closedResolver ? ' (set on the command line)' : ''}
          </span>
          <FieldError id={`${legacyId}-error`} message={fieldError(setting.key)} />
        </div>
      </div>
    );
  };

  return (
    <form onSubmit={onStart} className="crawl-form" noValidate ref={formRef}>
      <label htmlFor="seed-url">Seed URL</label>
      <div className="field">
        <textarea
          id="seed-url"
          rows={2}
          value={form.seeds}
          onChange={(event) => update({ ...form, seeds: event.target.value })}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
              event.preventDefault();
              formRef.current?.requestSubmit();
            }
          }}
          placeholder="https://example.com/ (one per line; Ctrl+Enter starts)"
          aria-invalid={invalid('seeds')}
          aria-describedby={fieldError('seeds') ? 'seed-url-error' : undefined}
        />
        <FieldError id="seed-url-error" message={fieldError('seeds')} />
        <UrlListImport onImport={(urls) => update({ ...form, seeds: urls.join('\n'), crawlMode: 'list' })} />
      </div>
      {field(MODE_SETTING)}
      <details className="settings" ref={details} data-testid="crawl-settings">
        <summary>Crawl settings</summary>
        <p className="hint">
          Each setting names its <code>crawlbench crawl</code> flag and starts at the same default. The normalization profile and the TLD lists are in the Settings view.
        </p>
        {FORM_GROUPS.map((group) => (
          <fieldset key={group} className="settings-group">
            <legend>{group}</legend>
            <div className="settings-grid">{FORM_SETTINGS.filter((setting) => setting.group === group && setting !== MODE_SETTING).map(field)}</div>
          </fieldset>
        ))}
        {info && info.hostOverrides.length > 0 ? (
          <p className="hint">
            Command-line overrides apply too: {info.hostOverrides.map((o) => `${o.host}=${o.address}${o.port ? `:${o.port}` : ''}`).join(', ')}
            {info.closedResolver ? ' (closed: other hosts are refused)' : ''}
          </p>
        ) : null}
        <button type="button" onClick={onReset} disabled={!defaults}>
          Reset to defaults
        </button>
      </details>
      <details className="settings" ref={rulesDetails}>
        <summary>
          Request settings per host
          {ruleRows.length > 0 ? ` (${ruleRows.length} rule${ruleRows.length === 1 ? '' : 's'})` : ''}
          {ruleRows.length === 0 && sentRules.length > 0 ? ` (crawl #${opened?.summary.id} sends ${sentRules.length === 1 ? 'one rule' : `${sentRules.length} rules`}, masked)` : ''}
        </summary>
        <RequestRulesEditor
          rows={ruleRows}
          onChange={setRuleRows}
          error={rules.ok ? null : rules.error}
          showErrors={showRuleErrors}
          sent={opened ? { crawlId: opened.summary.id, rules: sentRules } : null}
        />
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

/** Ids the form's fields had before every setting was exposed (e2e flows select `#threads-error`). */
const LEGACY_IDS: Partial<Record<CrawlFormField, string>> = {
  threads: 'threads',
  maxPages: 'max-pages',
  maxDepth: 'max-depth',
  scope: 'scope',
  minDelayMs: 'min-delay',
  userAgent: 'user-agent',
  hostOverrides: 'host-overrides',
};
