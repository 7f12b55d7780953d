import { CrawlForm } from './CrawlForm';
import { CrawlStatus } from './CrawlStatus';

/** The Crawl view: start and steer a crawl, and watch its counters. */
export function CrawlView() {
  return (
    <section className="panel" aria-label="Crawl session">
      <CrawlForm />
      <CrawlStatus />
    </section>
  );
}
