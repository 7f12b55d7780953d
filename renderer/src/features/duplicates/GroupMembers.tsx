import { useEffect, useState } from 'react';
import type { ContentGroupDetail, UrlGroupDetail } from '../../../../shared/ipc/views';
import { URL_NAME_LABELS } from '../../../../shared/types/url-names';
import { api } from '../../ipc/client';
import { useStore } from '../../store';
import { HEURISTIC_WORDS, LAYER_WORDS } from './heuristics';
import { diffWords } from './word-diff';

/** Props that make a member row open the URL inspector on click or Enter (a focusable row). */
function inspectorRowProps(inspect: () => void) {
  return {
    tabIndex: 0,
    className: 'selectable',
    title: 'Open in the URL inspector (Enter)',
    onClick: inspect,
    onKeyDown: (event: React.KeyboardEvent) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        inspect();
      }
    },
  };
}

/** The selected duplicate-URL group: canonical URL, the heuristic that chose it, members with cause labels. */
function UrlGroupMembers({ detail }: { detail: UrlGroupDetail }) {
  const inspectUrl = useStore((s) => s.inspectUrl);
  return (
    <>
      <dl className="facts">
        <dt>{URL_NAME_LABELS.normalized}</dt>
        <dd>{detail.normalized}</dd>
        <dt>{URL_NAME_LABELS.normalizedKey}</dt>
        <dd>{detail.normalizedKey}</dd>
        <dt>{URL_NAME_LABELS.canonical}</dt>
        <dd data-testid="group-canonical">{detail.canonical}</dd>
        <dt>Chosen because</dt>
        <dd data-testid="group-layer">
          {LAYER_WORDS[detail.layer]}
          {detail.siteRuleId ? ` (${detail.siteRuleId})` : ''}
        </dd>
        {detail.decidedBy ? (
          <>
            <dt>Heuristic</dt>
            <dd data-testid="group-heuristic">
              {HEURISTIC_WORDS[detail.decidedBy]}
              {detail.steps.length > 1 ? ` (after: ${detail.steps.slice(0, -1).map((step) => HEURISTIC_WORDS[step.heuristic]).join(', ')})` : ''}
            </dd>
          </>
        ) : null}
        <dt>Profile</dt>
        <dd>{detail.profileName}</dd>
      </dl>
      <table className="members" aria-label="URL group members">
        <thead>
          <tr>
            <th scope="col">{URL_NAME_LABELS.rawUrl}</th>
            <th scope="col">Differs by</th>
            <th scope="col">First seen on</th>
          </tr>
        </thead>
        <tbody>
          {detail.members.map((member) => (
            // Every spelling of the group is the one URL of the crawl under its normalized key.
            <tr key={member.rawUrl} {...inspectorRowProps(() => inspectUrl(detail.urlId))} className={`selectable${member.rawUrl === detail.canonical ? ' canonical' : ''}`}>
              <td>{member.rawUrl}</td>
              <td>
                {member.causes.length === 0 ? <span className="muted">already normal</span> : null}
                <ul className="causes" aria-label="Causes">
                  {member.causes.map((cause) => (
                    <li key={cause} className="cause">
                      {cause}
                    </li>
                  ))}
                </ul>
              </td>
              <td className="muted">{member.firstSeenFrom ?? 'seed'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** The selected content group: its pages with similarity, and a word diff of the first two. */
function ContentGroupMembers({ detail }: { detail: ContentGroupDetail }) {
  const inspectUrl = useStore((s) => s.inspectUrl);
  const diff = detail.texts ? diffWords(detail.texts.left, detail.texts.right) : null;
  return (
    <>
      <p>
        {detail.group.kind === 'exact' ? 'Identical visible text (same SHA-256 fingerprint).' : 'Near-duplicates: estimated Jaccard similarity of word shingles.'}
      </p>
      <table className="members" aria-label="Content group members">
        <thead>
          <tr>
            <th scope="col">Page</th>
            <th scope="col">Title</th>
            <th scope="col" className="num">
              Similarity
            </th>
            <th scope="col" className="num">
              Text chars
            </th>
          </tr>
        </thead>
        <tbody>
          {detail.members.map((member) => (
            <tr key={member.urlId} {...inspectorRowProps(() => inspectUrl(member.urlId))}>
              <td>{member.url}</td>
              <td>{member.title ?? ''}</td>
              <td className="num">{member.similarity.toFixed(2)}</td>
              <td className="num">{member.textChars ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {diff && detail.texts ? (
        <figure className="diff" aria-label="Text diff">
          <figcaption>
            Text diff of the first two pages ({detail.texts.textSource === 'page text' ? 'visible text' : 'titles only: page texts are not stored'})
          </figcaption>
          {detail.texts.textSource === 'titles' && detail.members[1] ? (
            <p className="hint">
              By shingles, about {Math.round((1 - detail.members[1].similarity) * 100)}% of the two pages' combined 4-word shingles are not shared (similarity{' '}
              {detail.members[1].similarity.toFixed(2)}); the words themselves are not stored.
            </p>
          ) : null}
          <p>
            {diff.map((part, index) =>
              part.kind === 'same' ? (
                <span key={index}>{part.text} </span>
              ) : part.kind === 'removed' ? (
                <del key={index}>{part.text} </del>
              ) : (
                <ins key={index}>{part.text} </ins>
              ),
            )}
          </p>
        </figure>
      ) : null}
    </>
  );
}

/** Members of the selected group (URL group or content group), loaded from main when selected. */
export function GroupMembers({ crawlId, selection }: { crawlId: number | null; selection: { kind: 'url'; id: number } | { kind: 'content'; id: number } | null }) {
  const [detail, setDetail] = useState<{ kind: 'url'; value: UrlGroupDetail } | { kind: 'content'; value: ContentGroupDetail } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setDetail(null);
    setError(null);
    if (crawlId === null || selection === null) return;
    let current = true;
    const load = async () => {
      if (selection.kind === 'url') {
        const result = await api['duplicates.getUrlGroup']({ crawlId, urlId: selection.id });
        if (!current) return;
        if (result.ok) setDetail({ kind: 'url', value: result.value });
        else setError(result.error.message);
      } else {
        const result = await api['duplicates.getContentGroup']({ crawlId, groupId: selection.id });
        if (!current) return;
        if (result.ok) setDetail({ kind: 'content', value: result.value });
        else setError(result.error.message);
      }
    };
    void load();
    return () => {
      current = false;
    };
  }, [crawlId, selection]);
  return (
    <section className="group-members" aria-label="Group members">
      <h3>Group members</h3>
      {error ? <p className="field-error">{error}</p> : null}
      {!detail && !error ? <p className="muted">Select a group to see its members.</p> : null}
      {detail?.kind === 'url' ? <UrlGroupMembers detail={detail.value} /> : null}
      {detail?.kind === 'content' ? <ContentGroupMembers detail={detail.value} /> : null}
    </section>
  );
}
