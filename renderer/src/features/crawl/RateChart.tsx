/** A small sparkline of pages per second over the last minute (SVG, no chart library needed for one polyline). */
export function RateChart({ samples }: { samples: number[] }) {
  const width = 240;
  const height = 40;
  const max = Math.max(1, ...samples);
  const points = samples.map((value, index) => `${(index / Math.max(1, samples.length - 1)) * width},${height - (value / max) * (height - 2) - 1}`).join(' ');
  return (
    <figure className="rate-chart">
      <svg width={width} height={height} role="img" aria-label={`Pages per second over time, peak ${max}`}>
        <polyline points={points} fill="none" stroke="currentColor" strokeWidth="1.5" />
      </svg>
      <figcaption>pages/s, peak {max}</figcaption>
    </figure>
  );
}
