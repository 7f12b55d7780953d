import { useId } from 'react';
import { formatElapsed } from '../../components/format';
import { niceTicks, type RateColumn } from './overview-model';
import { openTarget } from './navigate';

/**
 * Pages per second over the whole crawl, one column per time bucket of the stored fetch times
 * (so it survives a resume; a pause shows as empty columns). Each column is a `<button>` opening
 * the Pages table filtered to the pages fetched in its bucket. Plain HTML for the reason
 * BarChart gives.
 */
export function RateOverTime({ columns, bucketMs }: { columns: RateColumn[]; bucketMs: number }) {
  const titleId = useId();
  const ticks = niceTicks(Math.max(0, ...columns.map((column) => column.pagesPerSecond)), 3);
  const top = ticks.at(-1)!;
  const format = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));
  return (
    <figure className="rate-over-time" role="group" aria-labelledby={titleId}>
      <figcaption id={titleId}>Pages per second over the crawl ({bucketMs / 1000} s per column)</figcaption>
      {columns.length === 0 ? (
        <p className="muted">no page fetched yet</p>
      ) : (
        <div className="column-chart">
          <span className="axis-title y-axis-title">pages/s</span>
          <div className="y-axis" aria-hidden="true">
            {ticks.map((tick) => (
              <span key={tick} className="tick" style={{ bottom: `${(tick / top) * 100}%` }}>
                {format(tick)}
              </span>
            ))}
          </div>
          <div className="columns">
            {columns.map((column) => (
              <button
                type="button"
                key={column.key}
                className="column"
                aria-label={`${formatElapsed(column.offsetMs)} to ${formatElapsed(column.offsetMs + bucketMs)}: ${format(column.pagesPerSecond)} pages/s (${column.value} pages), show in Pages`}
                onClick={() => openTarget(column.target)}
              >
                <span className="column-fill" style={{ height: `${(column.pagesPerSecond / top) * 100}%` }} />
              </button>
            ))}
          </div>
          <span aria-hidden="true" />
          <div className="x-axis" aria-hidden="true">
            <span>{formatElapsed(0)}</span>
            <span>{formatElapsed(columns.length * bucketMs)}</span>
          </div>
          <span aria-hidden="true" />
          <span className="axis-title x-axis-title">time since the first fetch (m:ss)</span>
        </div>
      )}
    </figure>
  );
}
