/**
 * Pages per second over the whole crawl (SVG, no chart library needed for one polyline): the
 * stored history of earlier runs first, then this run's live samples, so a resume continues it.
 */
export function RateChart({ samples }: { samples: number[] }) {
  const width = 240;
  const height = 40;
  const max = Math.max(1, ...samples);
  const points = samples.map((value, index) => `${(index / Math.max(1, samples.length - 1)) * width},${height - (value / max) * (height - 2) - 1}`).join(' ');
  return (
    <figure className="rate-chart" data-testid="rate-chart" data-samples={samples.length}>
      <svg width={width} height={height} role="img" aria-label={`Pages per second over the crawl, peak ${max}`}>
        <polyline points={points} fill="none" stroke="currentColor" strokeWidth="1.5" />
      </svg>
      <figcaption>pages/s over the crawl, peak {max}</figcaption>
    </figure>
  );
}
