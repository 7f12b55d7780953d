import { useCallback, useEffect, useState } from 'react';
import type { CheckpointRow } from '../../../../shared/ipc/views';
import { Dialog } from '../../components/Dialog';
import { FieldError } from '../../components/FieldError';
import { formatTime } from '../../components/format';
import { api } from '../../ipc/client';
import { useStore } from '../../store';

/** A default checkpoint name from the time: `cp-20260821-101500`. */
function defaultName(): string {
  const now = new Date();
  const two = (n: number) => String(n).padStart(2, '0');
  return `cp-${now.getFullYear()}${two(now.getMonth() + 1)}${two(now.getDate())}-${two(now.getHours())}${two(now.getMinutes())}${two(now.getSeconds())}`;
}

/**
 * The Checkpoints view: the open crawl's checkpoints (time, pages done, frontier size, settings
 * hash), "Create checkpoint", and "Resume from checkpoint" (rolls the database back, then resumes).
 */
export function CheckpointsView() {
  const crawlId = useStore((s) => s.crawlId);
  const openCrawl = useStore((s) => s.openCrawl);
  const setTab = useStore((s) => s.setTab);
  const [list, setList] = useState<CheckpointRow[]>([]);
  const [name, setName] = useState('');
  const [selected, setSelected] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const load = useCallback(async () => {
    if (crawlId === null) return;
    const result = await api['checkpoints.list']({ crawlId });
    if (result.ok) setList(result.value);
    else setError(result.error.message);
  }, [crawlId]);
  useEffect(() => {
    setList([]);
    setSelected(null);
    void load();
  }, [load]);

  const create = async () => {
    if (crawlId === null) return;
    const checkpointName = name.trim() || defaultName();
    if (!/^[\w.-]{1,64}$/.test(checkpointName)) {
      setNameError("1-64 letters, digits, '.', '-' or '_'");
      return;
    }
    setNameError(null);
    setBusy(true);
    const result = await api['checkpoints.create']({ crawlId, name: checkpointName });
    setBusy(false);
    if (!result.ok) {
      if (result.error.code === 'CHECKPOINT_EXISTS' || result.error.code === 'INVALID_CHECKPOINT_NAME') setNameError(result.error.message);
      else setError(result.error.message);
      return;
    }
    setError(null);
    setName('');
    setSelected(result.value.name);
    await load();
  };

  const resume = async () => {
    if (crawlId === null || selected === null) return;
    setConfirming(false);
    setBusy(true);
    const result = await api['checkpoints.resume']({ crawlId, name: selected });
    setBusy(false);
    if (!result.ok) {
      setError(result.error.message);
      return;
    }
    setError(null);
    await openCrawl(crawlId);
    setTab('Crawl');
  };

  if (crawlId === null) return <section className="panel" aria-label="Checkpoints"><p className="muted">Open or start a crawl to see its checkpoints.</p></section>;
  return (
    <section className="panel checkpoints" aria-label="Checkpoints">
      <div className="toolbar">
        <label htmlFor="checkpoint-name">Checkpoint name</label>
        <div className="field">
          <input id="checkpoint-name" value={name} placeholder={defaultName()} onChange={(event) => setName(event.target.value)} aria-invalid={nameError ? true : undefined} />
          <FieldError id="checkpoint-name-error" message={nameError} />
        </div>
        <button type="button" onClick={() => void create()} disabled={busy}>
          Create checkpoint
        </button>
        <button type="button" onClick={() => setConfirming(true)} disabled={busy || selected === null}>
          Resume from checkpoint
        </button>
      </div>
      <FieldError id="checkpoints-error" message={error} />
      <table className="checkpoint-table" aria-label="Checkpoint list">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Time</th>
            <th scope="col" className="num">Pages done</th>
            <th scope="col" className="num">Frontier size</th>
            <th scope="col">Settings hash</th>
          </tr>
        </thead>
        <tbody>
          {list.length === 0 ? (
            <tr>
              <td colSpan={5} className="muted">
                No checkpoints yet
              </td>
            </tr>
          ) : null}
          {list.map((checkpoint) => (
            <tr
              key={checkpoint.name}
              aria-selected={checkpoint.name === selected}
              className={`selectable${checkpoint.name === selected ? ' selected' : ''}`}
              tabIndex={0}
              onClick={() => setSelected(checkpoint.name)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' || event.key === ' ') setSelected(checkpoint.name);
              }}
            >
              <td>{checkpoint.name}</td>
              <td>{formatTime(checkpoint.createdAtMs)}</td>
              <td className="num">{checkpoint.pagesDone}</td>
              <td className="num">{checkpoint.frontierSize}</td>
              <td>
                <code>{checkpoint.settingsHash}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {confirming && selected ? (
        <Dialog
          title="Roll back to the checkpoint?"
          onCancel={() => setConfirming(false)}
          actions={
            <>
              <button type="button" onClick={() => void resume()}>
                Roll back and resume
              </button>
              <button type="button" onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </>
          }
        >
          <p>
            The whole database goes back to checkpoint “{selected}”: running crawls stop, and what crawls recorded after it is lost. Crawl #{crawlId} then resumes from
            there. App settings and the checkpoint list are kept.
          </p>
        </Dialog>
      ) : null}
    </section>
  );
}
