/** Messages between the scheduler's side of the SQLite store and its writer thread (writer-thread.ts). */
import type { CrawlSettings, CrawlStatus } from '../../../shared/types/crawl';
import type { TrapState } from '../../../shared/types/traps';
import type { StoredRobots } from '../ports';
import type { PackedCommitBatch } from './batch-codec';

/** The crawl settings the row writer reads (the body cap defaults to DEFAULT_CRAWL_SETTINGS's). */
export type WriterSettings = Pick<CrawlSettings, 'nearDuplicateThreshold'> & Partial<Pick<CrawlSettings, 'maxStoredBodiesBytes'>>;

/** What the writer thread needs to open the crawl's write connection. */
export interface WriterThreadInit {
  /** The database file (not `:memory:`: the thread opens its own connection). */
  file: string;
  crawlId: number;
  settings: WriterSettings;
  /** better-sqlite3's native addon path, when the host process loads its own (Electron). */
  nativeBinding?: string;
  /** The TypeScript entry, when the thread runs from source through tsx (tsx-bootstrap.mjs). */
  entry?: string;
}

/** One write, with the id its reply carries (ids from 1; 0 is the thread's "ready"). */
export type WriterRequest =
  | { id: number; op: 'claimed'; urlIds: number[]; nowMs: number }
  | { id: number; op: 'commit'; batch: PackedCommitBatch }
  | { id: number; op: 'refetch'; urlId: number }
  | { id: number; op: 'setStatus'; status: CrawlStatus; finishedAtMs: number | null }
  | { id: number; op: 'saveRobots'; entry: StoredRobots }
  | { id: number; op: 'setTrapState'; trapId: number; state: TrapState; nowMs: number };

/** A write's answer: its value, or the error (message and SQLite code, e.g. SQLITE_FULL). */
export type WriterReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: { message: string; code: string | null; name: string } };
