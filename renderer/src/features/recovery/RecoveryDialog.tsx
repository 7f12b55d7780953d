import { useShallow } from 'zustand/react/shallow';
import { Dialog } from '../../components/Dialog';
import { formatCount, formatTime } from '../../components/format';
import { useStore } from '../../store';

/** "Resume crawl?": shown at launch after an unclean exit, naming the crawl and its pages done and queued. */
export function RecoveryDialog() {
  const { offer, error } = useStore(useShallow((s) => ({ offer: s.recovery, error: s.recoveryError })));
  const answer = useStore((s) => s.answerRecovery);
  if (!offer) return null;
  return (
    <Dialog
      title="Resume crawl?"
      onCancel={() => void answer('discard')}
      actions={
        <>
          <button type="button" onClick={() => void answer('resume')}>
            Resume
          </button>
          <button type="button" onClick={() => void answer('discard')}>
            Discard
          </button>
        </>
      }
    >
      <p data-testid="recovery-text">
        Crawl #{offer.crawlId} of {offer.seeds.join(', ')} (started {formatTime(offer.createdAtMs)}) did not end cleanly: {formatCount(offer.pagesDone, 'page')} done, {offer.queued} queued
        {offer.errors > 0 ? `, ${formatCount(offer.errors, 'error')}` : ''}.
      </p>
      <p className="muted">Resume continues it where it stopped; Discard leaves it stopped with its data (you can resume it later from History).</p>
      {error ? <p className="field-error">{error}</p> : null}
    </Dialog>
  );
}
