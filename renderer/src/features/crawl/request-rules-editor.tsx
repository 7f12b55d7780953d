import { useRef, useState } from 'react';
import type { RequestRule, RequestRuleError } from '../../../../shared/types/request-rules';
import { FieldError } from '../../components/FieldError';
import { maskedRuleText, newRuleRow, type HeaderRow, type RequestRuleRow } from './request-rules-form';

/** What the editor shows of the open crawl: its number and its stored rules, masked. */
export interface SentRules {
  crawlId: number;
  rules: readonly RequestRule[];
}

/** The props of {@link RequestRulesEditor}. */
export interface RequestRulesEditorProps {
  rows: readonly RequestRuleRow[];
  onChange(rows: RequestRuleRow[]): void;
  /** The first problem of `rows` (request-rules-form.ts `readRuleRows`), or null. */
  error: RequestRuleError | null;
  /** Show `error` whatever was touched (set once Start was clicked with a bad rule). */
  showErrors: boolean;
  /** The open crawl's rules as its settings keep them (masked), or null when no crawl is open. */
  sent: SentRules | null;
}

/**
 * "Request settings per host" of the crawl form: rules for an exact host or `*.suffix` with extra
 * headers (name/value rows), a Cookie value, HTTP Basic user and password (a password field) and a
 * proxy URL, as `crawlbench crawl --header/--cookie/--auth/--proxy`. A rule's problem shows beside
 * its field once one of its fields lost focus (or Start was clicked). Below, the open crawl's rules
 * as its settings keep them: masked, never a secret.
 */
export function RequestRulesEditor({ rows, onChange, error, showErrors, sent }: RequestRulesEditorProps) {
  const [touched, setTouched] = useState<ReadonlySet<number>>(new Set());
  // Keys are never reused, so a new rule does not inherit an old one's "touched".
  const lastKey = useRef(0);
  const nextKey = () => (lastKey.current = Math.max(lastKey.current, ...rows.map((row) => row.key)) + 1);
  const replace = (index: number, patch: Partial<RequestRuleRow>) => onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  const setHeader = (index: number, headerIndex: number, patch: Partial<HeaderRow>) => {
    const row = rows[index]!;
    replace(index, { headers: row.headers.map((header, i) => (i === headerIndex ? { ...header, ...patch } : header)) });
  };
  const touch = (key: number) => {
    if (!touched.has(key)) setTouched(new Set([...touched, key]));
  };

  const shown = error && (showErrors || (error.rule === null ? touched.size > 0 : touched.has(rows[error.rule]?.key ?? -1))) ? error : null;
  /** The message for one field of rule `index` (a header: of its row `header`), when the shown problem is there. */
  const errorAt = (index: number, field: RequestRuleError['field'], header?: number) =>
    shown && shown.rule === index && shown.field === field && (header === undefined || shown.header === header) ? shown.message : undefined;

  return (
    <div className="request-rules" data-testid="request-rules">
      <p className="hint">
        Extra headers, a cookie, HTTP Basic credentials and a proxy for an exact host or <code>*.suffix</code> (every host under it), as{' '}
        <code>--header</code>, <code>--cookie</code>, <code>--auth</code> and <code>--proxy</code>. A redirect to another host does not carry them. They are sent
        with Start crawl and kept beside the database (<code>….secrets.json</code>, readable by you alone) for a resume, never in it; the crawl&apos;s settings show them
        masked, and this form forgets them once the crawl starts.
      </p>
      {rows.map((row, index) => {
        const id = (field: string) => `rule-${row.key}-${field}`;
        const headerError = row.headers.map((_, headerIndex) => errorAt(index, 'headers', headerIndex));
        const headersError = errorAt(index, 'headers') && shown?.header === undefined ? errorAt(index, 'headers') : undefined;
        return (
          <fieldset key={row.key} className="settings-group" aria-label={`Request rule ${index + 1}`} onBlur={() => touch(row.key)}>
            <legend>Rule {index + 1}</legend>
            <div className="settings-grid">
              <label htmlFor={id('host')}>Host pattern</label>
              <div className="field">
                <input
                  id={id('host')}
                  value={row.host}
                  onChange={(event) => replace(index, { host: event.target.value })}
                  placeholder="example.com, or *.example.com for every host under it"
                  aria-invalid={errorAt(index, 'host') ? true : undefined}
                  aria-describedby={errorAt(index, 'host') ? `${id('host')}-error` : undefined}
                  autoComplete="off"
                  spellCheck={false}
                />
                <FieldError id={`${id('host')}-error`} message={errorAt(index, 'host')} />
              </div>
              <span className="label">Headers</span>
              <div className="field" role="group" aria-label={`Headers of rule ${index + 1}`}>
                {row.headers.map((header, headerIndex) => (
                  <div key={headerIndex} className="buttons">
                    <input
                      aria-label={`Header name ${headerIndex + 1}`}
                      value={header.name}
                      onChange={(event) => setHeader(index, headerIndex, { name: event.target.value })}
                      placeholder="X-Api-Key"
                      aria-invalid={headerError[headerIndex] ? true : undefined}
                      autoComplete="off"
                      spellCheck={false}
                    />
                    <input
                      aria-label={`Header value ${headerIndex + 1}`}
                      value={header.value}
                      onChange={(event) => setHeader(index, headerIndex, { value: event.target.value })}
                      placeholder="value"
                      aria-invalid={headerError[headerIndex] ? true : undefined}
                      autoComplete="off"
                      spellCheck={false}
                    />
                    <button type="button" onClick={() => replace(index, { headers: row.headers.filter((_, i) => i !== headerIndex) })} aria-label={`Remove header ${headerIndex + 1}`}>
                      Remove
                    </button>
                    <FieldError id={`${id('header')}-${headerIndex}-error`} message={headerError[headerIndex]} />
                  </div>
                ))}
                <div className="buttons">
                  <button type="button" onClick={() => replace(index, { headers: [...row.headers, { name: '', value: '' }] })}>
                    Add header
                  </button>
                </div>
                <FieldError id={`${id('headers')}-error`} message={headersError} />
              </div>
              <label htmlFor={id('cookie')}>Cookie</label>
              <div className="field">
                <input
                  id={id('cookie')}
                  value={row.cookie}
                  onChange={(event) => replace(index, { cookie: event.target.value })}
                  placeholder="session=abc; lang=en"
                  aria-invalid={errorAt(index, 'cookie') ? true : undefined}
                  aria-describedby={errorAt(index, 'cookie') ? `${id('cookie')}-error` : undefined}
                  autoComplete="off"
                  spellCheck={false}
                />
                <FieldError id={`${id('cookie')}-error`} message={errorAt(index, 'cookie')} />
              </div>
              <label htmlFor={id('username')}>Basic auth user</label>
              <div className="field">
                <input
                  id={id('username')}
                  value={row.username}
                  onChange={(event) => replace(index, { username: event.target.value })}
                  aria-invalid={errorAt(index, 'auth') ? true : undefined}
                  aria-describedby={errorAt(index, 'auth') ? `${id('auth')}-error` : undefined}
                  autoComplete="off"
                  spellCheck={false}
                />
              </div>
              <label htmlFor={id('password')}>Basic auth password</label>
              <div className="field">
                <input
                  id={id('password')}
                  type="password"
                  value={row.password}
                  onChange={(event) => replace(index, { password: event.target.value })}
                  aria-invalid={errorAt(index, 'auth') ? true : undefined}
                  aria-describedby={errorAt(index, 'auth') ? `${id('auth')}-error` : undefined}
                  autoComplete="new-password"
                />
                <FieldError id={`${id('auth')}-error`} message={errorAt(index, 'auth')} />
              </div>
              <label htmlFor={id('proxy')}>Proxy URL</label>
              <div className="field">
                <input
                  id={id('proxy')}
                  value={row.proxy}
                  onChange={(event) => replace(index, { proxy: event.target.value })}
                  placeholder="http://proxy.example:3128 or http://user:password@proxy.example:3128"
                  aria-invalid={errorAt(index, 'proxy') ? true : undefined}
                  aria-describedby={errorAt(index, 'proxy') ? `${id('proxy')}-error` : undefined}
                  autoComplete="off"
                  spellCheck={false}
                />
                <FieldError id={`${id('proxy')}-error`} message={errorAt(index, 'proxy')} />
              </div>
            </div>
            <div className="buttons">
              <button type="button" onClick={() => onChange(rows.filter((_, i) => i !== index))} aria-label={`Remove rule ${index + 1}`}>
                Remove rule
              </button>
              <FieldError id={`${id('rule')}-error`} message={errorAt(index, 'rule')} />
            </div>
          </fieldset>
        );
      })}
      <div className="buttons">
        <button type="button" onClick={() => onChange([...rows, newRuleRow(nextKey())])}>
          Add host
        </button>
        <FieldError id="request-rules-error" message={shown && shown.rule === null ? shown.message : undefined} />
      </div>
      {sent && sent.rules.length > 0 ? (
        <div className="hint" data-testid="sent-request-rules">
          Crawl #{sent.crawlId} sends (masked):
          <ul>
            {sent.rules.map((rule) => (
              <li key={rule.host}>{maskedRuleText(rule)}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
