import './overview.css';
import { useStore } from '../../store';
import { SiteTreePanel } from '../sitetree/SiteTreePanel';
import { BarChart } from './BarChart';
import { openTarget } from './navigate';
import { contentTypeBars, depthBars, hostBars, indexabilityBars, rateColumns, refusalBars, responseTimeBars, statusBars, type OverviewTarget } from './overview-model';
import { RateOverTime } from './RateOverTime';
import { useOverview } from './use-overview';

function CounterButton({ label, value, target, words }: { label: string; value: number; target: OverviewTarget; words: string }) {
  return (
    <button type="button" className="overview-counter" aria-label={`${label}: ${value.toLocaleString()}, ${words}`} onClick={() => openTarget(target)}>
      <span className="counter-value">{value.toLocaleString()}</span>
      <span className="counter-label">{label}</span>
    </button>
  );
}

/**
 * The Overview tab (issue 11 part 4): the open crawl's pages by status class, depth, response
 * time, content type, indexability and host, links refused per rule and pages per second over the
 * whole crawl, live while it runs; every bar and counter opens the Pages table filtered to it (or
 * the Frontier view). Below, the site tree and a selected page's crawl tree (part 5).
 */
export function OverviewView() {
  const crawlId = useStore((s) => s.crawlId);
  const { overview, error } = useOverview(crawlId);
  if (crawlId === null) {
    return (
      <section className="panel overview" aria-label="Overview">
        <p className="muted">Start a crawl, or open one in the Crawls view, to see its overview.</p>
      </section>
    );
  }
  return (
    <section className="panel overview" aria-label="Overview">
      {error ? (
        <p role="alert" className="field-error">
          The overview could not be loaded: {error.message} ({error.code})
        </p>
      ) : null}
      {overview === null ? (
        <p className="muted">Loading the overview…</p>
      ) : (
        <>
          <div className="overview-counters">
            <CounterButton label="Pages" value={overview.pages} target={{ view: 'Pages', filter: {} }} words="show all in Pages" />
            <CounterButton label="Queued or in flight" value={overview.queued} target={{ view: 'Frontier' }} words="show the Frontier view" />
            <CounterButton label="Client errors (4xx)" value={overview.statusClasses['4xx']} target={{ view: 'Pages', filter: { status: '4xx' } }} words="show in Pages" />
            <CounterButton label="Server errors (5xx)" value={overview.statusClasses['5xx']} target={{ view: 'Pages', filter: { status: '5xx' } }} words="show in Pages" />
            <CounterButton label="Failed" value={overview.statusClasses.failed} target={{ view: 'Pages', filter: { status: 'failed' } }} words="show in Pages" />
            <CounterButton label="Links refused" value={overview.refusedByRule.reduce((sum, rule) => sum + rule.links, 0)} target={{ view: 'Frontier' }} words="show the Frontier view" />
          </div>
          <div className="overview-charts">
            <BarChart title="Status codes" categoryAxis="status class" unit="pages" bars={statusBars(overview)} />
            <BarChart title="Depth" categoryAxis="links from a seed" unit="pages" bars={depthBars(overview)} />
            <BarChart title="Response time" categoryAxis="fetch time" unit="pages" bars={responseTimeBars(overview)} />
            <BarChart title="Content types" categoryAxis="media type" unit="pages" bars={contentTypeBars(overview)} />
            <BarChart title="Indexability" categoryAxis="verdict" unit="pages" bars={indexabilityBars(overview)} />
            <BarChart title="Pages per host" categoryAxis="host" unit="pages" bars={hostBars(overview)} />
            <BarChart title="Links refused by rule" categoryAxis="link rule" unit="links" bars={refusalBars(overview)} empty="no link refused" />
            <RateOverTime columns={rateColumns(overview)} bucketMs={overview.rate.bucketMs} />
          </div>
        </>
      )}
      <SiteTreePanel crawlId={crawlId} />
    </section>
  );
}
