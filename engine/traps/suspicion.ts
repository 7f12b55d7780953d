/** What a detector reports when it fires: the pattern to hold and why. */
import type { TrapDetector, TrapEvidence } from '../../shared/types/traps';

/** One detector's finding on one host (shared/types/traps.ts TrapRow without the stored parts). */
export interface TrapSuspicion {
  detector: TrapDetector;
  host: string;
  /** Regular-expression source over the whole URL (url-shape.ts: linear-time constructs only). */
  pattern: string;
  /** The pattern as people read it. */
  template: string;
  evidence: TrapEvidence;
  /** The URL that made it fire. */
  example: string;
}
