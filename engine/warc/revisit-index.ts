/**
 * Which archived response a repeated payload refers to (WARC/1.1 §6.7, identical-payload-digest
 * profile): the first response record written with each payload digest, for the live WARC
 * (warc-sink.ts) and the export from stored bodies (app/services/warc-export.ts) alike. Bounded:
 * 1M digests and 64 MiB at most (BoundedCache); past it the oldest are forgotten and a repeat of
 * their payload is archived whole again (never wrong, only larger).
 */
import { BoundedCache } from '../dedupe/seen-cache';

/** The first response record archived with a payload: what a revisit record refers to. */
export interface ArchivedOriginal {
  url: string;
  /** Its WARC-Date, epoch ms. */
  fetchedAtMs: number;
}

const MAX_REMEMBERED_PAYLOADS = 1_000_000;
const MAX_REMEMBERED_BYTES = 64 * 1024 * 1024;

export class RevisitIndex {
  private readonly originals = new BoundedCache<ArchivedOriginal>({
    maxEntries: MAX_REMEMBERED_PAYLOADS,
    maxBytes: MAX_REMEMBERED_BYTES,
    sizeOf: (digest, original) => 2 * (digest.length + original.url.length) + 96,
  });

  /**
   * The response a capture with `payloadDigest` revisits, or undefined when it is to be archived
   * whole: then `capture` is remembered as that payload's original. An empty payload
   * (`payloadBytes` 0) is never a revisit and is not remembered.
   */
  revisitOf(payloadDigest: string, payloadBytes: number, capture: ArchivedOriginal): ArchivedOriginal | undefined {
    if (payloadBytes === 0) return undefined;
    const original = this.originals.get(payloadDigest);
    if (original === undefined) this.originals.set(payloadDigest, capture);
    return original;
  }
}
