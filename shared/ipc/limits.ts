/**
 * Size bounds of the IPC contract that a transport must know. The request schemas (schemas.ts)
 * use these constants, and browser mode's WebSocket frame limit is derived from them, so the
 * largest request the contract accepts always fits in one frame (one source of truth).
 */
import { MAX_REQUEST_RULES_CHARS } from '../types/request-rules';
import { MAX_URL_PATTERNS, MAX_URL_REGEX_CHARS } from '../url/url-patterns';

/** Most seed URLs one `crawl.start` may carry (a pasted URL list of a large site). */
export const MAX_SEEDS = 100_000;

/** Longest seed URL, in UTF-16 code units. */
export const MAX_SEED_CHARS = 8192;

/**
 * Most UTF-16 code units of all seeds of one `crawl.start` together (16 Mi: 100,000 seeds of 160
 * characters, or 20,000 of 830). The total, not count × longest, bounds the frame.
 */
export const MAX_SEED_LIST_CHARS = 16 * 1024 * 1024;

/** Most entries of a crawl's `includeDomains` or `excludeDomains` list. */
export const MAX_DOMAIN_LIST = 10_000;

/** Longest host name, in characters (RFC 1035). */
export const MAX_HOST_CHARS = 253;

/** UTF-8 bytes one UTF-16 code unit takes at most in JSON text (a character JSON.stringify does not escape). */
const UTF8_BYTES_PER_CODE_UNIT = 3;

/** JSON bytes around one string in an array: two quotes and a comma. */
const STRING_FRAMING_BYTES = 3;

/**
 * Bytes a request frame may spend besides the bounded lists below: the frame's envelope, the
 * scalar settings, host overrides (at most 1,000 of under 400 bytes), the request rules' JSON
 * keys and quotes (at most 100 rules of 64 headers: under 50 kB), and the TLD and
 * normalization lists, which the schemas leave unbounded (the whole Public Suffix List, the
 * largest such list a user imports, is about 0.2 MB).
 */
const OTHER_REQUEST_BYTES = 16 * 1024 * 1024;

/**
 * Largest request frame browser mode accepts, in bytes: a `crawl.start` whose seeds total
 * {@link MAX_SEED_LIST_CHARS} code units in {@link MAX_SEEDS} strings, both domain lists and both
 * URL pattern lists (shared/url/url-patterns.ts) and its request rules' text
 * (shared/types/request-rules.ts MAX_REQUEST_RULES_CHARS) at their bounds, every character at up to 3
 * UTF-8 bytes, plus 16 MiB for the rest (about 87 MB in all). A bigger frame cannot be a valid request; the socket client answers it with INVALID_PAYLOAD without
 * sending it, and the server closes a socket that sends one (close code 1009, message too big).
 */
export const MAX_REQUEST_FRAME_BYTES =
  UTF8_BYTES_PER_CODE_UNIT * (MAX_SEED_LIST_CHARS + 2 * MAX_DOMAIN_LIST * MAX_HOST_CHARS + 2 * MAX_URL_PATTERNS * MAX_URL_REGEX_CHARS + MAX_REQUEST_RULES_CHARS) +
  STRING_FRAMING_BYTES * (MAX_SEEDS + 2 * MAX_DOMAIN_LIST + 2 * MAX_URL_PATTERNS) +
  OTHER_REQUEST_BYTES;

/** Longest file path a request may name (an export's file, a database to compare with), in characters: Linux's PATH_MAX. */
export const MAX_PATH_CHARS = 4096;

/** Most rows one paged request returns (a page of a table; the renderer asks for 100). */
export const MAX_PAGE_ROWS = 1000;
