import { useCallback, useEffect, useState } from 'react';
import type { DustReport, ListedProposal, RekeyOutcome, RuleSource } from '../../../../shared/types/dust-rules';
import type { DustRule } from '../../../../shared/url/dust/rule';
import { api } from '../../ipc/client';

/**
 * The Duplicates view's Rules section (issue 12 parts 5 and 6): DUST rules mined from the crawl's
 * fetched pages (different URLs, same content) with their support and confidence; Accept puts one
 * into the crawl's normalization and re-keys its queued frontier (the merged URLs and fetches saved
 * are shown); the newest accepted rule can be undone. Mining runs when asked (it reads every
 * fetched page), not on every refresh. With a content group selected, the rules that explain its
 * duplicates are offered too: promoting the group's difference to a rule.
 */
export function RulesSection({ crawlId, live, contentGroupId }: { crawlId: number | null; live: boolean; contentGroupId: number | null }) {
  const [report, setReport] = useState<DustReport | null>(null);
  const [minSupport, setMinSupport] = useState(3);
  const [pauseAndResume, setPauseAndResume] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [groupRules, setGroupRules] = useState<{ groupId: number; proposals: ListedProposal[] } | null>(null);

  const mine = useCallback(async () => {
    if (crawlId === null) return;
    setBusy(true);
    setError(null);
    const result = await api['dust.mine']({ crawlId, minSupport });
    setBusy(false);
    if (result.ok) setReport(result.value);
    else setError(result.error.message);
  }, [crawlId, minSupport]);

  const loadGroupRules = useCallback(async () => {
    if (crawlId === null || contentGroupId === null) return;
    const result = await api['dust.groupRules']({ crawlId, groupId: contentGroupId });
    if (result.ok) setGroupRules({ groupId: contentGroupId, proposals: result.value });
    else setError(result.error.message);
  }, [crawlId, contentGroupId]);

  useEffect(() => {
    setGroupRules(null);
    void loadGroupRules();
  }, [loadGroupRules]);

  useEffect(() => {
    setReport(null);
    setMessage(null);
    setError(null);
  }, [crawlId]);

  const accept = async (rule: DustRule, description: string, source: RuleSource) => {
    if (crawlId === null) return;
    setBusy(true);
    setError(null);
    const result = await api['dust.accept']({ crawlId, rule, whileRunning: pauseAndResume ? 'pause-and-resume' : 'refuse', source });
    setBusy(false);
    if (!result.ok) {
      setError(result.error.message);
      return;
    }
    setMessage(outcomeText(description, result.value));
    await mine();
    await loadGroupRules();
  };

  const undo = async (ruleId: number) => {
    if (crawlId === null) return;
    setBusy(true);
    setError(null);
    const result = await api['dust.undo']({ crawlId, ruleId });
    setBusy(false);
    if (!result.ok) {
      setError(result.error.message);
      return;
    }
    void loadGroupRules();
    setMessage(`Rule ${ruleId} undone: ${result.value.restored} URLs back in the frontier, ${result.value.rekeyed} URLs given back their key or depth.`);
    await mine();
  };

  const active = report?.rules.filter((rule) => rule.undoneAtMs === null) ?? [];
  const newest = active.at(-1)?.id ?? null;
  return (
    <section className="dust-rules" aria-label="Rules">
      <div className="toolbar">
        <h3>Rules</h3>
        <label htmlFor="dust-min-support">Min support</label>
        <input id="dust-min-support" type="number" min={1} value={minSupport} onChange={(event) => setMinSupport(Math.max(1, Math.floor(Number(event.target.value)) || 1))} />
        <button type="button" disabled={crawlId === null || busy} onClick={() => void mine()}>
          {report ? 'Mine again' : 'Mine DUST rules'}
        </button>
        <label title="Accepting a rule re-keys the stored frontier: a running crawl is paused first and resumed after">
          <input type="checkbox" checked={pauseAndResume} onChange={(event) => setPauseAndResume(event.target.checked)} /> {live ? 'Pause, apply and resume' : 'Apply to a running crawl (pause and resume)'}
        </label>
      </div>
      {error ? <p className="field-error">{error}</p> : null}
      {message ? (
        <p className="muted" data-testid="dust-outcome">
          {message}
        </p>
      ) : null}
      {groupRules ? (
        <div className="dust-group-rules" aria-label="Rules for the selected content group">
          {groupRules.proposals.length === 0 ? (
            <p className="muted">No rule explains content group {groupRules.groupId}: its pages differ by more than one substitution or parameter.</p>
          ) : (
            <ul>
              {groupRules.proposals.map((proposal) => (
                <li key={proposal.description}>
                  Content group {groupRules.groupId} differs by <code>{proposal.description}</code> ({proposal.confirmed} confirmed, {proposal.refuted} refuted on fetched pages){' '}
                  <button type="button" disabled={busy || proposal.accepted} onClick={() => void accept(proposal.rule, proposal.description, 'content-group')}>
                    {proposal.accepted ? 'Accepted' : 'Make it a rule'}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
      {report ? (
        <>
          <p className="muted" data-testid="dust-stats">
            {report.stats.pages} fetched pages, {report.stats.buckets} contents at several URLs ({report.stats.bucketsSkipped} too common, skipped), {report.stats.pairs} URL pairs aligned
            {report.stats.pairsCapped || report.stats.candidatesCapped || report.pagesTruncated ? ' (a cap was met: the list may be incomplete)' : ''}
          </p>
          {report.proposals.length === 0 ? <p className="muted">No rule has enough support.</p> : null}
          <table className="dust-proposals" aria-label="Mined DUST rules">
            <thead>
              <tr>
                <th>Rule</th>
                <th>Support</th>
                <th>Confirmed / refuted</th>
                <th>Example</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {report.proposals.map((proposal) => (
                <tr key={proposal.description}>
                  <td>
                    <code>{proposal.description}</code>
                  </td>
                  <td className="num">{proposal.support}</td>
                  <td className="num">
                    {proposal.confirmed} / {proposal.refuted}
                  </td>
                  <td className="example" title={proposal.examples.map((example) => `${example.from} → ${example.to}`).join('\n')}>
                    {proposal.examples[0] ? `${proposal.examples[0].from} → ${proposal.examples[0].to}` : ''}
                  </td>
                  <td>
                    <button type="button" disabled={busy || proposal.accepted} onClick={() => void accept(proposal.rule, proposal.description, 'dust')}>
                      {proposal.accepted ? 'Accepted' : 'Accept'}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {active.length > 0 ? (
            <ul className="dust-accepted" aria-label="Accepted rules">
              {active.map((rule) => (
                <li key={rule.id}>
                  <code>{rule.description}</code>: {rule.merged} URLs merged, {rule.rekeyed} re-keyed{' '}
                  {rule.id === newest ? (
                    <button type="button" disabled={busy} onClick={() => void undo(rule.id)}>
                      Undo
                    </button>
                  ) : null}
                </li>
              ))}
            </ul>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

function outcomeText(description: string, outcome: RekeyOutcome): string {
  return `Accepted ${description}: ${outcome.merged} queued URLs merged (${outcome.fetchesSaved} fetches saved), ${outcome.rekeyed} URLs re-keyed, ${outcome.fetchedDuplicates} fetched duplicates found.`;
}
