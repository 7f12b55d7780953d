/** The Pages view: the crawl's results table (issue 11 part 2; replaced by the Pages table). */
export function PagesView() {
  return <section className="panel" aria-label="Pages" />;
}
