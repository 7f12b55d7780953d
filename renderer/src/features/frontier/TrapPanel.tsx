import { useCallback, useEffect, useState } from 'react';
import type { TrapRow } from '../../../../shared/types/traps';
import { formatCount } from '../../components/format';
import { api } from '../../ipc/client';

/** How often the trap list is read again while the crawl runs (a trap can be found any time). */
const TRAPS_REFRESH_MS = 2000;

/** The crawl's traps, read on open and every {@link TRAPS_REFRESH_MS} while it runs. */
export function useTraps(crawlId: number | null, live: boolean): { traps: TrapRow[]; error: string | null; reload(): void } {
  const [traps, setTraps] = useState<TrapRow[]>([]);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(() => {
    if (crawlId === null) {
      setTraps([]);
      return;
    }
    void api['frontier.queryTraps']({ crawlId }).then((result) => {
      if (result.ok) {
        setTraps(result.value);
        setError(null);
      } else setError(result.error.message);
    });
  }, [crawlId]);
  useEffect(() => {
    reload();
    if (!live) return;
    const timer = setInterval(reload, TRAPS_REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload, live]);
  return { traps, error, reload };
}

const DETECTOR_LABELS: Record<TrapRow['detector'], string> = {
  'repeated-segments': 'repeated path segments',
  'path-depth': 'path depth growing along one prefix',
  'counter-sequence': 'counter or calendar sequence',
  'param-explosion': 'query-parameter explosion',
  'near-identical': 'near-identical pages under one pattern',
};

/**
 * Suspected crawler traps of the open crawl (issue 12), one card per trap: "trap suspected" on its
 * host with the evidence (pattern, URLs held, examples, detector), and Release (its URLs are
 * queued again) or Exclude permanently (they stay held, new matches too).
 */
export function TrapPanel({ crawlId, traps, error, onChanged, onSelectHost }: { crawlId: number; traps: TrapRow[]; error: string | null; onChanged(): void; onSelectHost(host: string): void }) {
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  if (traps.length === 0 && error === null) return null;
  const act = async (trap: TrapRow, state: 'released' | 'excluded') => {
    const result = await api['frontier.setTrapState']({ crawlId, trapId: trap.id, state });
    setMessage(result.ok ? { text: result.value.message, error: false } : { text: result.error.message, error: true });
    onChanged();
  };
  return (
    <section className="trap-panel" aria-label="Crawler traps">
      <h2>Crawler traps</h2>
      {error ? <p className="field-error">{error}</p> : null}
      <ul className="trap-list">
        {traps.map((trap) => (
          <li key={trap.id} className={`trap trap-${trap.state}`} data-testid="trap">
            <div className="trap-head">
              <button type="button" className="link-button" onClick={() => onSelectHost(trap.host)} title="Show this host's URLs">
                {trap.host}
              </button>{' '}
              <strong>{trap.state === 'suspected' ? 'trap suspected' : trap.state === 'excluded' ? 'trap excluded' : 'trap released'}</strong>: {DETECTOR_LABELS[trap.detector]}, {formatCount(trap.heldCount, 'URL')} held
            </div>
            <div>
              Pattern <code title={trap.pattern}>{trap.template}</code>
            </div>
            <div className="trap-evidence">{trap.evidence.summary}</div>
            <details>
              <summary>Examples and regular expression</summary>
              <code className="trap-pattern">{trap.pattern}</code>
              <ul>
                {trap.examples.map((example) => (
                  <li key={example}>{example}</li>
                ))}
              </ul>
            </details>
            <div className="trap-actions">
              {trap.state !== 'released' ? (
                <button type="button" onClick={() => void act(trap, 'released')}>
                  Release
                </button>
              ) : null}
              {trap.state !== 'excluded' ? (
                <button type="button" onClick={() => void act(trap, 'excluded')}>
                  Exclude permanently
                </button>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
      {message ? (
        <p className={message.error ? 'field-error' : 'status-line'} role="status">
          {message.text}
        </p>
      ) : null}
    </section>
  );
}
