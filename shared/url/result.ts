/**
 * The project's `Result` type, re-exported so shared/url callers need one import path.
 * Errors travel as data (`{ ok: false, error: { code, message } }`, STYLE.md convention 5);
 * the single definition lives in shared/types/result.ts.
 */
export { ok, err, type ErrorInfo, type Result } from '../types/result';
