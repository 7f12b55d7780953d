import { useId } from 'react';
import { niceTicks, type Bar } from './overview-model';
import { openTarget, targetWords } from './navigate';

/**
 * A horizontal bar chart whose every bar is a real `<button>` opening the table filtered to it.
 *
 * Plain HTML and CSS rather than a chart library: the charts here are a few bars each, and what
 * they need most is that each bar be a focusable, named button in the page's tab order with a
 * category axis and a value axis in text. SVG chart libraries (Recharts, visx, Chart.js on a
 * canvas) draw marks that are not buttons; making each one keyboard-operable and named means
 * wrapping or re-implementing them, which is more code than these bars, plus a dependency.
 */
export function BarChart({ title, categoryAxis, unit, bars, empty }: { title: string; categoryAxis: string; unit: 'pages' | 'links'; bars: Bar[]; empty?: string }) {
  const titleId = useId();
  const ticks = niceTicks(Math.max(0, ...bars.map((bar) => bar.value)), 4, true);
  const top = ticks.at(-1)!;
  return (
    <figure className="bar-chart" role="group" aria-labelledby={titleId}>
      <figcaption id={titleId}>{title}</figcaption>
      {bars.length === 0 ? (
        <p className="muted">{empty ?? 'none yet'}</p>
      ) : (
        <div className="bar-chart-grid">
          <span className="axis-title category-axis">{categoryAxis}</span>
          <span aria-hidden="true" />
          {bars.map((bar) => (
            <div className="bar-row" key={bar.key}>
              <span className="bar-label" title={bar.label}>
                {bar.label}
              </span>
              <button type="button" className="bar" aria-label={`${bar.label}: ${bar.value.toLocaleString()} ${bar.value === 1 ? unit.slice(0, -1) : unit}, ${targetWords(bar.target)}`} onClick={() => openTarget(bar.target)}>
                <span className="bar-fill" style={{ width: `${(bar.value / top) * 100}%` }} />
                <span className="bar-value">{bar.value.toLocaleString()}</span>
              </button>
            </div>
          ))}
          <span aria-hidden="true" />
          <div className="value-axis" aria-hidden="true">
            {ticks.map((tick) => (
              <span key={tick} className="tick" style={{ left: `${(tick / top) * 100}%` }}>
                {tick.toLocaleString()}
              </span>
            ))}
          </div>
          <span aria-hidden="true" />
          <span className="axis-title value-axis-title">{unit}</span>
        </div>
      )}
    </figure>
  );
}
