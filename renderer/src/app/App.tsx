import { useEffect } from 'react';
import { CrawlPanel } from '../features/crawl/CrawlPanel';
import { FrontierTable } from '../features/frontier/FrontierTable';
import { connectStoreToEvents, useStore } from '../store';

/** The workbench: crawl panel above the live frontier table. */
export function App() {
  const loadInfo = useStore((s) => s.loadInfo);
  const mode = useStore((s) => s.info?.mode);
  useEffect(() => {
    void loadInfo();
    return connectStoreToEvents();
  }, [loadInfo]);
  return (
    <main className="app">
      <header className="app-header">
        <h1>Crawlbench</h1>
        {mode ? <span className="mode">{mode === 'browser' ? 'browser mode' : 'desktop'}</span> : null}
      </header>
      <CrawlPanel />
      <FrontierTable />
    </main>
  );
}
