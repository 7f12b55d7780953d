import { useEffect, useState } from 'react';
import type { CrawlSummary } from '../../../../shared/types/crawl';
import { formatTime } from '../../components/format';
import { api } from '../../ipc/client';
import { useStore } from '../../store';
import { ExportPanel } from './ExportPanel';

/** The History view (tab "History"): every crawl in the database; open one to see it in the Crawl view (and resume it when it can be) and export it. */
export function CrawlsView() {
  const crawlId = useStore((s) => s.crawlId);
  const status = useStore((s) => s.progress?.status);
  const openCrawl = useStore((s) => s.openCrawl);
  const setTab = useStore((s) => s.setTab);
  const [crawls, setCrawls] = useState<CrawlSummary[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void api['crawl.list']({}).then((result) => {
      if (result.ok) setCrawls(result.value);
      else setError(result.error.message);
    });
  }, [crawlId, status]);
  return (
    <section className="panel crawls" aria-label="Crawl history">
      {error ? <p className="field-error">{error}</p> : null}
      <div className="crawls-scroll">
        <table aria-label="Crawl list">
          <thead>
            <tr>
              <th scope="col" className="num">#</th>
              <th scope="col">Seeds</th>
              <th scope="col">Status</th>
              <th scope="col">Started</th>
              <th scope="col" className="num" title="URLs fetched (state done): the rows of a pages export">
                Pages fetched
              </th>
              <th scope="col" className="num">Queued</th>
              <th scope="col" className="num">Errors</th>
              <th scope="col">
                <span className="visually-hidden">Open</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {crawls.length === 0 ? (
              <tr>
                <td colSpan={8} className="muted">
                  No crawls yet
                </td>
              </tr>
            ) : null}
            {crawls.map((crawl) => (
              <tr key={crawl.id} className={crawl.id === crawlId ? 'selected' : undefined} aria-current={crawl.id === crawlId ? 'true' : undefined}>
                <td className="num">{crawl.id}</td>
                <td className="url" title={crawl.seeds.join('\n')}>
                  {crawl.seeds.join(', ')}
                </td>
                <td>{crawl.status}</td>
                <td>{formatTime(crawl.createdAtMs)}</td>
                <td className="num">{crawl.fetched}</td>
                <td className="num">{crawl.queued}</td>
                <td className="num">{crawl.errors}</td>
                <td>
                  <button
                    type="button"
                    aria-label={`Open crawl ${crawl.id}`}
                    onClick={() => {
                      void openCrawl(crawl.id).then((opened) => opened && setTab('Crawl'));
                    }}
                  >
                    Open
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ExportPanel />
    </section>
  );
}
