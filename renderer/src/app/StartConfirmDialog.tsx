import { Dialog } from '../components/Dialog';
import { useStore } from '../store';

/** "Start another crawl?": asked when Start crawl is pressed while another crawl is running. */
export function StartConfirmDialog() {
  const pending = useStore((s) => s.pendingStart);
  if (!pending) return null;
  const running = pending.runningCrawlIds.map((id) => `#${id}`).join(', ');
  return (
    <Dialog
      title="Start another crawl?"
      onCancel={() => pending.answer(false)}
      actions={
        <>
          <button type="button" onClick={() => pending.answer(true)}>
            Start another crawl
          </button>
          <button type="button" onClick={() => pending.answer(false)}>
            Cancel
          </button>
        </>
      }
    >
      <p>
        Crawl {running} is still running. A second crawl runs alongside it and shares this computer&apos;s connection and threads; both keep going. Stop or pause the running crawl first if you
        meant to replace it.
      </p>
    </Dialog>
  );
}
