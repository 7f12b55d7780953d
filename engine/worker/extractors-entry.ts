/**
 * The crawl worker's door to custom extraction, imported dynamically (crawl-worker.ts) so that the
 * extractors' module, cheerio and its parse5 and encoding packages load only in a crawl that has
 * extractors. A module of this folder, so the layering rules check its static import.
 */
export { CompiledExtractors } from '../extract/extractors';
