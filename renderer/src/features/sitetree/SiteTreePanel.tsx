import { useEffect, useState } from 'react';
import { CrawlTree } from './CrawlTree';
import { SiteTree } from './SiteTree';

/** The Overview's site-tree area: the site tree, and beside it the crawl tree of the page selected in it. */
export function SiteTreePanel({ crawlId }: { crawlId: number }) {
  const [urlId, setUrlId] = useState<number | null>(null);
  useEffect(() => setUrlId(null), [crawlId]);
  return (
    <div className="site-tree-panel">
      <section aria-labelledby="site-tree-heading" className="site-tree-section">
        <h2 id="site-tree-heading">Site tree</h2>
        <SiteTree crawlId={crawlId} onSelect={setUrlId} />
      </section>
      <section aria-labelledby="crawl-tree-heading" className="crawl-tree-section">
        <h2 id="crawl-tree-heading">Crawl tree</h2>
        {urlId === null ? <p className="muted">Select a page in the site tree to see how the crawler reached it.</p> : <CrawlTree urlId={urlId} />}
      </section>
    </div>
  );
}
