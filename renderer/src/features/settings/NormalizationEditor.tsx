import { useState } from 'react';
import type { NormalizationPreview } from '../../../../shared/ipc/views';
import { PROFILES, type BuiltInProfileName, type NormalizationProfile } from '../../../../shared/url/profiles';
import { ruleLabel } from '../../../../shared/url/rule-labels';
import { RULE_INFO, RULE_ORDER, type NormalizationRuleName } from '../../../../shared/url/rules';
import { formatCount } from '../../components/format';
import { api } from '../../ipc/client';

const BUILT_IN = Object.keys(PROFILES) as BuiltInProfileName[];

/** The built-in profile these switches equal, or null. */
function builtInNamed(profile: NormalizationProfile): BuiltInProfileName | null {
  return BUILT_IN.find((name) => RULE_ORDER.every((rule) => PROFILES[name].rules[rule] === profile.rules[rule])) ?? null;
}

/** "+ 3 more" when a list shows fewer names than it has. */
function more(shown: number, count: number): string {
  return count > shown ? ` + ${count - shown} more` : '';
}

/** The preview's counts, then before → after examples of keys that change and groups that merge or split. */
function PreviewResult({ preview }: { preview: NormalizationPreview }) {
  return (
    <div className="preview-result">
      <p role="status" data-testid="normalization-preview">
        Of {formatCount(preview.examined, 'URL')}
        {preview.sampled ? ' (the first ones: a sample)' : ''}, {preview.changedKeys} would change key; {formatCount(preview.mergedGroups, 'group')} would merge and{' '}
        {formatCount(preview.splitGroups, 'group')} would split.
      </p>
      {preview.changedExamples.length > 0 ? (
        <>
          <h4>Normalized URLs that change{preview.changedKeys > preview.changedExamples.length ? ` (first ${preview.changedExamples.length})` : ''}</h4>
          <ul className="examples" aria-label="URLs whose key changes">
            {preview.changedExamples.map((example) => (
              <li key={example.url} title={example.url}>
                <code>{example.before}</code> → <code>{example.after}</code>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {preview.mergedExamples.length > 0 ? (
        <>
          <h4>Groups that merge{preview.mergedGroups > preview.mergedExamples.length ? ` (first ${preview.mergedExamples.length})` : ''}</h4>
          <ul className="examples" aria-label="Groups that merge">
            {preview.mergedExamples.map((example) => (
              <li key={example.after}>
                {example.before.map((before, index) => (
                  <span key={before}>
                    {index > 0 ? ' + ' : ''}
                    <code>{before}</code>
                  </span>
                ))}
                {more(example.before.length, example.count)} → <code>{example.after}</code>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {preview.splitExamples.length > 0 ? (
        <>
          <h4>Groups that split{preview.splitGroups > preview.splitExamples.length ? ` (first ${preview.splitExamples.length})` : ''}</h4>
          <ul className="examples" aria-label="Groups that split">
            {preview.splitExamples.map((example) => (
              <li key={example.before}>
                <code>{example.before}</code> →{' '}
                {example.after.map((after, index) => (
                  <span key={after}>
                    {index > 0 ? ', ' : ''}
                    <code>{after}</code>
                  </span>
                ))}
                {more(example.after.length, example.count)}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

/**
 * Normalization: the profile picker, each rule as a switch, and a preview of what the profile
 * would do to the open crawl (counts, and before → after examples of keys that change and groups
 * that merge or split).
 */
export function NormalizationEditor({ profile, onChange, crawlId }: { profile: NormalizationProfile; onChange(profile: NormalizationProfile): void; crawlId: number | null }) {
  const [preview, setPreview] = useState<NormalizationPreview | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const selected = (BUILT_IN as string[]).includes(profile.name) ? profile.name : 'custom';

  const setRule = (rule: NormalizationRuleName, on: boolean) => {
    const rules = { ...profile.rules, [rule]: on };
    const next = { ...profile, rules };
    const same = builtInNamed(next);
    onChange(same ? structuredClone(PROFILES[same]) : { ...next, name: 'custom' });
    setPreview(null);
  };

  const runPreview = async () => {
    if (crawlId === null) return;
    const result = await api['settings.previewNormalization']({ crawlId, profile });
    setPreview(result.ok ? result.value : null);
    setPreviewError(result.ok ? null : result.error.message);
  };

  return (
    <div className="normalization">
      <label htmlFor="profile">Normalization profile</label>
      <select
        id="profile"
        value={selected}
        onChange={(event) => {
          const name = event.target.value as BuiltInProfileName;
          if (name in PROFILES) onChange(structuredClone(PROFILES[name]));
          setPreview(null);
        }}
      >
        {BUILT_IN.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
        {selected === 'custom' ? <option value="custom">custom</option> : null}
      </select>
      <ul className="rules" aria-label="Normalization rules">
        {RULE_ORDER.map((rule) => (
          <li key={rule}>
            <label title={`${rule}\n${RULE_INFO[rule].example.input} → ${RULE_INFO[rule].example.output}\n${RULE_INFO[rule].source}`}>
              <input type="checkbox" role="switch" checked={profile.rules[rule]} aria-checked={profile.rules[rule]} onChange={(event) => setRule(rule, event.target.checked)} />
              <span className="rule-name" title={rule}>
                {ruleLabel(rule)}
              </span>
              <span className="rule-summary">{RULE_INFO[rule].summary}</span>
            </label>
          </li>
        ))}
      </ul>
      <div className="preview">
        <button type="button" onClick={() => void runPreview()} disabled={crawlId === null}>
          Preview on the open crawl
        </button>
        {crawlId === null ? <span className="muted"> open a crawl to preview</span> : null}
        {previewError ? <p className="field-error">{previewError}</p> : null}
        {preview ? <PreviewResult preview={preview} /> : null}
      </div>
    </div>
  );
}
