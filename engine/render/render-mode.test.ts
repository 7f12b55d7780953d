import { describe, expect, it } from 'vitest';
import { AUTO_RENDER_MIN_WORDS, renderable, renderReason } from './render-mode';

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
const page = (body: string, head = '') => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

describe('renderReason: the auto heuristic', () => {
  it('off never renders, always always does', () => {
    expect(renderReason('off', page('<div id="app"></div><script src="/a.js"></script>'), 0)).toBeNull();
    expect(renderReason('always', page(`<p>${words(500)}</p>`), 500)).toBe('always');
  });

  it.each([
    ['an empty app root', page('<div id="app"></div><script src="/app.js"></script><p>' + words(80) + '</p>'), 80, 'app-root'],
    ['an empty React root', page('<div id="root">  </div><script type="module" src="/main.js"></script>'), 0, 'app-root'],
    ['an empty Next.js root', page("<div id='__next'></div><script>self.__next_f=[]</script>"), 0, 'app-root'],
    ['an Angular root', page('<app-root></app-root><script src="main.js"></script>'), 0, 'app-root'],
    ['a noscript asking for JavaScript', page(`<noscript>You need to enable JavaScript to run this app.</noscript><p>${words(80)}</p><script src="/a.js"></script>`), 80, 'noscript'],
    ['document.write', page(`<script>document.write('<a href="/x">x</a>')</script><p>${words(80)}</p>`), 80, 'document-write'],
    ['little text with a script', page('<p>Loading…</p><script src="/bundle.js"></script>'), 1, 'little-text'],
  ])('renders a page with %s', (_name, html, wordCount, reason) => {
    expect(renderReason('auto', html, wordCount)).toBe(reason);
  });

  it.each([
    ['a page with plenty of text and a script', page(`<p>${words(AUTO_RENDER_MIN_WORDS)}</p><script src="/analytics.js"></script>`), AUTO_RENDER_MIN_WORDS],
    ['a page without scripts, even empty', page('<div id="app"></div>'), 0],
    ['a page whose only script is JSON-LD', page('<script type="application/ld+json">{"@type":"Product"}</script><p>short</p>'), 1],
    ['a filled app root with plenty of text', page(`<div id="app"><p>${words(60)}</p></div><script src="/a.js"></script>`), 60],
    ['a noscript that asks for nothing', page(`<noscript><img src="/pixel.gif"></noscript><p>${words(60)}</p><script src="/a.js"></script>`), 60],
  ])('leaves %s alone', (_name, html, wordCount) => {
    expect(renderReason('auto', html, wordCount)).toBeNull();
  });

  it('reads a noscript with markup inside (Sphinx\'s search page)', () => {
    const html = page('<noscript><div class="admonition error"><p>Please activate JavaScript to enable the search functionality.</p></div></noscript><p>' + words(80) + '</p><script src="searchtools.js"></script>');
    expect(renderReason('auto', html, 80)).toBe('noscript');
  });

  it('stays linear on a hostile page (repeated open tags, no closing >)', () => {
    const hostile = '<script>' + ('<noscript>' + 'enable '.repeat(100)).repeat(700) + '<p>' + '<div id="app" '.repeat(30_000);
    const startedAt = performance.now();
    for (let i = 0; i < 5; i += 1) renderReason('auto', hostile, 500);
    expect(performance.now() - startedAt).toBeLessThan(2_000);
  });

  it('reads a null word count as no text', () => {
    expect(renderReason('auto', page('<script src="/a.js"></script>'), null)).toBe('little-text');
  });
});

describe('renderable: what may be rendered at all', () => {
  const html = Buffer.from('<html><body>x</body></html>');
  it.each([
    [{ status: 200, redirect: null, contentType: 'text/html; charset=utf-8', body: html }, true],
    [{ status: 200, redirect: null, contentType: 'application/xhtml+xml', body: html }, true],
    [{ status: 200, redirect: null, contentType: undefined, body: html }, true],
    [{ status: 200, redirect: null, contentType: 'application/pdf', body: html }, false],
    [{ status: 404, redirect: null, contentType: 'text/html', body: html }, false],
    [{ status: 301, redirect: { location: 'http://a.test/', raw: '/' }, contentType: 'text/html', body: html }, false],
    [{ status: 200, redirect: null, contentType: 'text/html', body: Buffer.alloc(0) }, false],
  ])('%j → %s', (answer, expected) => {
    expect(renderable(answer)).toBe(expected);
  });
});
