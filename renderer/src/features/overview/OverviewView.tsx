/** The Overview view: charts and the site tree (issue 11 parts 4 and 5; replaced by them). */
export function OverviewView() {
  return <section className="panel" aria-label="Overview" />;
}
