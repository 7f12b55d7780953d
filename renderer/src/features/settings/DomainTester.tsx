import { useEffect, useState } from 'react';
import type { DomainTestResult } from '../../../../shared/ipc/views';
import type { TldConfig } from '../../../../shared/url/tld-config';
import { useDebounced } from '../../hooks/use-debounced';
import { api } from '../../ipc/client';

/**
 * "Test a URL": seed 000's algorithm step by step (each check, match or no match, the result,
 * and, when no rule matched, a warning saying what to add to the lists) for the lists being
 * edited, saved or not.
 */
export function DomainTester({ tld }: { tld: TldConfig }) {
  const [url, setUrl] = useState('');
  const input = useDebounced(url.trim(), 200);
  const [result, setResult] = useState<DomainTestResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (input === '') {
      setResult(null);
      setError(null);
      return;
    }
    let current = true;
    void api['settings.testDomain']({ url: input, tld }).then((answer) => {
      if (!current) return;
      setResult(answer.ok ? answer.value : null);
      setError(answer.ok ? null : answer.error.message);
    });
    return () => {
      current = false;
    };
  }, [input, tld]);
  return (
    <div className="domain-tester">
      <label htmlFor="test-url">Test a URL</label>
      <input id="test-url" value={url} onChange={(event) => setUrl(event.target.value)} placeholder="http://www.example.co.uk/page" />
      {error ? <p className="field-error">{error}</p> : null}
      {result ? (
        <div className="trace">
          <p data-testid="domain-result">
            {result.error ? `Invalid host: ${result.error}` : `Registrable domain: ${result.registrableDomain ?? 'none'}`}
            {result.publicSuffix ? ` (public suffix ${result.publicSuffix})` : ''}
          </p>
          <ol aria-label="Domain trace">
            {result.trace.map((step, index) => (
              <li key={index} className={`step step-${step.step}${step.matched === true ? ' matched' : step.matched === false ? ' unmatched' : ''}`}>
                {step.matched === true ? <span aria-label="match">✓ </span> : step.matched === false ? <span aria-label="no match">✗ </span> : null}
                {step.text}
              </li>
            ))}
          </ol>
          {result.warning ? (
            <p className="warning" role="status" data-testid="domain-warning">
              {result.warning}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
