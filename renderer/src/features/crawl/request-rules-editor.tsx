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
              <RuleInput id={id('host')} label="Host pattern" value={row.host} onChange={(host) => replace(index, { host })} error={errorAt(index, 'host')} placeholder="example.com, or *.example.com for every host under it" />
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
              <RuleInput id={id('cookie')} label="Cookie" value={row.cookie} onChange={(cookie) => replace(index, { cookie })} error={errorAt(index, 'cookie')} placeholder="session=abc; lang=en" />
              <RuleInput id={id('username')} label="Basic auth user" value={row.username} onChange={(username) => replace(index, { username })} error={errorAt(index, 'auth')} errorId={`${id('auth')}-error`} errorShownElsewhere />
              <RuleInput id={id('password')} label="Basic auth password" password value={row.password} onChange={(password) => replace(index, { password })} error={errorAt(index, 'auth')} errorId={`${id('auth')}-error`} />
              <RuleInput id={id('proxy')} label="Proxy URL" value={row.proxy} onChange={(proxy) => replace(index, { proxy })} error={errorAt(index, 'proxy')} placeholder="http://proxy.example:3128 or http://user:password@proxy.example:3128" />
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

/** The props of {@link RuleInput}. */
interface RuleInputProps {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  /** The field's problem, when it has one now. */
  error: string | undefined;
  /** The id of the element that says the problem. @default `${id}-error` */
  errorId?: string;
  placeholder?: string;
  /** A secret: typed hidden, never offered by the browser's autofill of saved passwords. */
  password?: boolean;
  /** The problem is said under another field (the Basic auth user's, under the password). */
  errorShownElsewhere?: boolean;
}

/** One labelled text field of a rule, with its problem under it. */
function RuleInput({ id, label, value, onChange, error, errorId = `${id}-error`, placeholder, password = false, errorShownElsewhere = false }: RuleInputProps) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <div className="field">
        <input
          id={id}
          type={password ? 'password' : undefined}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          placeholder={placeholder}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          autoComplete={password ? 'new-password' : 'off'}
          spellCheck={false}
        />
        {errorShownElsewhere ? null : <FieldError id={errorId} message={error} />}
      </div>
    </>
  );
}
