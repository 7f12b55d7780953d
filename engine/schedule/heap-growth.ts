/**
 * V8 heap growth in a process that runs crawls (issue 15 part 4: memory flat by construction).
 *
 * After each full GC, V8 lets an old generation grow to a multiple of what survived (up to about
 * 4× when GC is cheap) before it collects again. A crawl's main thread keeps its byte-bounded
 * caches full (link targets, known URLs, aliases: engine/links/link-budget.ts) and allocates fast,
 * so its heap sat at 300–340 MB for 145–204 MB live at 100,000 synthetic pages, and the process
 * peaked at 776 MB. Growing by at most 30% (V8's --heap-growing-percent) keeps that headroom near
 * the live set: the same 100,000 pages peaked at 568 MB, and the 20,200-page synthetic crawl used
 * 75.3 user CPU-s against 77.7 without it (--optimize-for-size, which shrank the heap further,
 * cost 62% more CPU).
 */
import v8 from 'node:v8';

/** How far (percent) a V8 heap may grow past what its last full GC kept. */
export const CRAWL_HEAP_GROWING_PERCENT = 30;

/**
 * Sets V8's heap growing factor for the whole process (every isolate: the main thread and the
 * crawl, writer and render workers started later). Call once, early, in a process that crawls
 * (the CLI, Electron's main process); V8 reads the factor at each full GC.
 */
export function limitHeapGrowth(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${CRAWL_HEAP_GROWING_PERCENT}`);
}
