/**
 * The DUST fixture host (issue 12 part 5; seed 002's `story?id=xyz` / `story_xyz` example): one news
 * site that serves each story at two URLs, `/story?id=N` and `/story_N.html`, plus a print copy at
 * `/print/story_N.html`, all with the same visible text. The index links every story all three ways,
 * so a crawl fetches each article up to three times: the DUST a mined rule removes.
 */
import type { DynamicRoutes } from '../fixture-server';
import { html, sendHtml, type Handler } from '../fixture-sites';

/** The DUST host. */
export const DUST_HOST = 'news.test';

/** Stories on the host, numbered 1..DUST_STORIES. */
export const DUST_STORIES = 12;

const WORDS = ['harbour', 'council', 'budget', 'festival', 'bridge', 'library', 'election', 'market', 'river', 'school', 'orchestra', 'railway'];

/** One story's page: the same text whichever URL serves it (title, heading, a paragraph of about 40 words, a link home). */
function story(id: number): Handler {
  const topic = WORDS[(id - 1) % WORDS.length]!;
  const sentence = `Story ${id} reports on the ${topic} of the town: residents met on day ${id} to discuss the ${topic}, its costs and its future, and the mayor promised a decision before the season ends.`;
  const body = `<h1>Story ${id}: the ${topic}</h1><p>${sentence} ${sentence.replace('reports on', 'looks again at')}</p><p><a href="/">Home</a></p>`;
  return (_request, response) => sendHtml(response, html(`Story ${id}`, body));
}

const storyId = (text: string | undefined | null): number | null => {
  const id = Number(text);
  return Number.isInteger(id) && id >= 1 && id <= DUST_STORIES ? id : null;
};

/** The index: for every story, its `?id=` link, its `_N.html` link and its print link, in that order. */
const index: Handler = (_request, response) => {
  const items: string[] = [];
  for (let id = 1; id <= DUST_STORIES; id++) {
    items.push(`<li><a href="/story?id=${id}">Story ${id}</a> <a href="/story_${id}.html">permalink</a> <a href="/print/story_${id}.html">print</a></li>`);
  }
  sendHtml(response, html('News', `<h1>News</h1><ul>${items.join('')}</ul>`));
};

/** `/story?id=N` (the path `/story`; the id is read from the query). */
const storyByQuery: Handler = (request, response) => {
  const id = storyId(new URL(request.url ?? '/', 'http://x').searchParams.get('id'));
  if (id === null) sendHtml(response, html('Not found', 'No such story'), 404);
  else void story(id)(request, response);
};

/** Fixed pages of the DUST host (start the fixture server with these and {@link dustRoute}). */
export const DUST_SITES: Record<string, Record<string, Handler>> = {
  [DUST_HOST]: { '/': index, '/story': storyByQuery },
};

/** `/story_N.html` and `/print/story_N.html` on the DUST host. */
export const dustRoute: DynamicRoutes = (host, path) => {
  if (host !== DUST_HOST) return undefined;
  const match = /^\/(?:print\/)?story_(\d+)\.html$/.exec(path);
  const id = storyId(match?.[1]);
  return id === null ? undefined : story(id);
};
