import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { DEFAULT_CRAWL_SETTINGS } from '../../../../shared/types/crawl';
import { DEFAULT_GENERIC_TLDS } from '../../../../shared/url/tld-config';
import { Dialog } from '../../components/Dialog';
import { formatCount } from '../../components/format';
import { api } from '../../ipc/client';
import { useStore } from '../../store';
import { DomainTester } from './DomainTester';
import { additionalTldProblem, extensionProblem, genericTldProblem, splitPipeList } from './list-entries';
import { ListEditor } from './ListEditor';
import { NormalizationEditor } from './NormalizationEditor';

const lines = (entries: readonly string[]) => `${entries.join('\n')}\n`;

/**
 * The Settings view: TLD lists and the domain tester, ignored extensions, the normalization
 * profile. Edits are a draft until "Save settings"; saved settings apply to the next crawl, and
 * saving while the open crawl runs asks whether to apply them now.
 */
export function SettingsView() {
  const { draft, saved, error, notice, crawlId, running } = useStore(
    useShallow((s) => ({ draft: s.draftSettings, saved: s.savedSettings, error: s.settingsError, notice: s.settingsNotice, crawlId: s.crawlId, running: s.progress?.status === 'running' })),
  );
  const edit = useStore((s) => s.editSettings);
  const save = useStore((s) => s.saveSettings);
  const discard = useStore((s) => s.discardSettingsDraft);
  const applyNow = useStore((s) => s.applySettingsNow);
  const [pslNotice, setPslNotice] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  if (!draft) return <section className="panel" aria-label="Settings">{error ? <p className="field-error">{error}</p> : 'Loading settings…'}</section>;
  const dirty = JSON.stringify(draft) !== JSON.stringify(saved);
  const extensions = splitPipeList(draft.ignoredExtensions);

  const importPsl = async () => {
    const result = await api['settings.getPublicSuffixList']({});
    if (!result.ok) {
      setPslNotice(result.error.message);
      return;
    }
    const known = new Set(draft.tld.additional);
    const added = result.value.rules.filter((rule) => !known.has(rule));
    edit({ tld: { ...draft.tld, additional: [...draft.tld.additional, ...added] } });
    setPslNotice(`Imported ${formatCount(added.length, 'suffix', 'suffixes')} from the Public Suffix List (${result.value.snapshotDate}); ${formatCount(result.value.skipped, 'wildcard or exception rule', 'wildcard and exception rules')} apply in PSL mode only`);
  };

  const onSave = async () => {
    const tldOrExtensionsChanged = saved && (JSON.stringify(draft.tld) !== JSON.stringify(saved.tld) || draft.ignoredExtensions !== saved.ignoredExtensions);
    const ok = await save();
    if (ok && running && tldOrExtensionsChanged) setAsking(true);
  };

  return (
    <section className="panel settings-view" aria-label="Settings">
      <div className="settings-columns">
        <div>
          <h2>Registrable domains</h2>
          <fieldset className="tld-mode">
            <legend>Domain algorithm</legend>
            <label>
              <input type="radio" name="tld-mode" checked={draft.tld.mode === 'psl'} onChange={() => edit({ tld: { ...draft.tld, mode: 'psl' } })} /> Public Suffix List (the lists add to it)
            </label>
            <label>
              <input type="radio" name="tld-mode" checked={draft.tld.mode === 'seed'} onChange={() => edit({ tld: { ...draft.tld, mode: 'seed' } })} /> Seed 000: the two lists only
            </label>
          </fieldset>
          <ListEditor
            label="Generic TLDs"
            entries={draft.tld.generic}
            onChange={(generic) => edit({ tld: { ...draft.tld, generic } })}
            problem={genericTldProblem}
            defaults={DEFAULT_GENERIC_TLDS}
            exportFile={{ name: 'generic-tlds.txt', text: lines }}
            placeholder="com"
          />
          <ListEditor
            label="Additional TLDs"
            entries={draft.tld.additional}
            onChange={(additional) => {
              edit({ tld: { ...draft.tld, additional } });
              setPslNotice(null);
            }}
            problem={additionalTldProblem}
            defaults={[]}
            exportFile={{ name: 'additional-tlds.txt', text: lines }}
            placeholder="co.uk"
            notice={pslNotice}
          >
            <button type="button" onClick={() => void importPsl()}>
              Import Public Suffix List
            </button>
          </ListEditor>
          <DomainTester tld={draft.tld} />
        </div>
        <div>
          <h2>Link rules</h2>
          <ListEditor
            label="Ignored extensions"
            entries={extensions}
            onChange={(entries) => edit({ ignoredExtensions: entries.join('|') })}
            problem={extensionProblem}
            defaults={splitPipeList(DEFAULT_CRAWL_SETTINGS.ignoredExtensions)}
            exportFile={{ name: 'ignored-extensions.txt', text: (entries) => `${entries.join('|')}\n` }}
            placeholder="pdf"
          />
          <h2>Normalization</h2>
          <NormalizationEditor profile={draft.normalizationProfile} onChange={(normalizationProfile) => edit({ normalizationProfile })} crawlId={crawlId} />
        </div>
      </div>
      <div className="settings-footer">
        <button type="button" onClick={() => void onSave()} disabled={!dirty}>
          Save settings
        </button>
        <button type="button" onClick={discard} disabled={!dirty}>
          Discard changes
        </button>
        <span role="status" className={error ? 'field-error' : 'muted'} data-testid="settings-status">
          {error ?? (dirty ? 'Unsaved changes' : (notice ?? 'Saved settings apply to the next crawl'))}
        </span>
      </div>
      {asking ? (
        <Dialog
          title="Apply to the running crawl?"
          onCancel={() => setAsking(false)}
          actions={
            <>
              <button
                type="button"
                onClick={() => {
                  setAsking(false);
                  void applyNow();
                }}
              >
                Apply now
              </button>
              <button type="button" onClick={() => setAsking(false)}>
                Next crawl only
              </button>
            </>
          }
        >
          <p>
            Crawl #{crawlId} is running with the lists it started with. Apply now stops it (in-flight fetches are recorded) and resumes it with the new TLD lists
            and ignored extensions. Its normalization profile stays: a crawl keeps its keys.
          </p>
        </Dialog>
      ) : null}
    </section>
  );
}
