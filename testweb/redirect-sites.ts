import type http from 'node:http';
import { html, sendHtml, type Handler } from './fixture-sites';

/**
 * Fixture hosts for redirects that must pass robots.txt and politeness like any URL (issue 9,
 * defect 6) and for robots.txt redirects (RFC 9309 §2.3.1.2). Served by
 * `startFixtureServer(REDIRECT_SITES)`; the tests in tests/integration/redirects.test.ts and
 * tests/hostile/redirects.hostile.test.ts state what a user should see for each.
 */
const redirect = (location: string, status = 301): Handler => (_req, res) => {
  res.writeHead(status, { location });
  res.end('moved');
};
const page = (title: string, body: string): Handler => (_req, res) => sendHtml(res, html(title, body));
const robotsTxt = (text: string): Handler => (_req: http.IncomingMessage, res: http.ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end(text);
};

export const REDIRECT_SITES: Record<string, Record<string, Handler>> = {
  // Redirects to a path robots.txt disallows, on the same host and on another host.
  'hops.test': {
    '/robots.txt': robotsTxt('User-agent: *\nDisallow: /private/\n'),
    '/': page(
      'Hops',
      '<a href="/to-private">same host, disallowed</a> <a href="/to-other">other host</a> <a href="/to-other-private">other host, disallowed</a> <a href="/to-home">home again</a>',
    ),
    '/to-private': redirect('/private/secret.html', 302),
    '/private/secret.html': page('Secret', 'robots.txt disallows this page'),
    '/to-other': redirect('http://other-host.test/page.html'),
    '/to-other-private': redirect('http://other-host.test/private/x.html', 307),
    '/to-home': redirect('/#top', 308),
  },
  // A redirect whose Location is longer than the crawl's URL length limit.
  'long-location.test': {
    '/robots.txt': robotsTxt('User-agent: *\nAllow: /\n'),
    '/': page('Long Location', '<a href="/to-long">a redirect to a 5,000-character URL</a>'),
    '/to-long': redirect(`/long/${'a'.repeat(5000)}`, 302),
  },
  'other-host.test': {
    '/robots.txt': robotsTxt('User-agent: *\nDisallow: /private/\n'),
    '/page.html': page('Other host', 'reached through a redirect'),
    '/private/x.html': page('Other secret', 'robots.txt of other-host.test disallows this page'),
  },
  // A redirect to a host that was just fetched: the hop waits that host's politeness delay.
  'polite-a.test': {
    '/robots.txt': robotsTxt('User-agent: *\nAllow: /\n'),
    '/go': redirect('http://polite-b.test/target.html', 302),
  },
  'polite-b.test': {
    '/robots.txt': robotsTxt('User-agent: *\nAllow: /\n'),
    '/': page('Polite B', 'first page of polite-b'),
    '/target.html': page('Target', 'reached through a redirect from polite-a'),
  },
  // A loop whose two URLs are both linked from the home page (found as links, not through the chain).
  'loops.test': {
    '/': page('Loops', '<a href="/x">x</a> <a href="/y">y</a> <a href="/self">self</a>'),
    '/x': redirect('/y', 302),
    '/y': redirect('/x', 302),
    '/self': redirect('/self?', 301),
  },
  // A seed that moves to another host: the target is crawled as a seed (host scope included).
  'moved.test': {
    '/': redirect('http://www.moved.test/'),
  },
  'www.moved.test': {
    '/': page('Moved home', '<a href="/inside.html">inside</a>'),
    '/inside.html': page('Inside', 'in scope through the seed redirect'),
  },
  // robots.txt redirects in a loop: robots.txt is unavailable, so everything is allowed.
  'robotsloop.test': {
    '/robots.txt': redirect('/robots-b.txt'),
    '/robots-b.txt': redirect('/robots.txt'),
    '/': page('Robots loop', '<a href="/a.html">a</a>'),
    '/a.html': page('A', 'allowed: robots.txt is unavailable'),
  },
  // robots.txt redirected to a host the crawler cannot reach: this host's robots.txt is unreachable
  // (RFC 9309 §2.3.1.4), not this host.
  'robotsaway.test': {
    '/robots.txt': redirect('http://unmapped-robots.test/robots.txt'),
    '/': page('Robots away', 'never fetched while robots.txt is unreachable'),
  },
  // robots.txt moved through five redirects (RFC 9309: follow at least five), across hosts: its
  // rules apply to this host.
  'robotsmoved.test': {
    '/robots.txt': redirect('/r/1'),
    ...Object.fromEntries(Array.from({ length: 3 }, (_, i) => [`/r/${i + 1}`, redirect(`/r/${i + 2}`)])),
    '/r/4': redirect('http://robots-cdn.test/shared-robots.txt'),
    '/': page('Robots moved', '<a href="/open.html">open</a> <a href="/private/x.html">private</a>'),
    '/open.html': page('Open', 'allowed'),
    '/private/x.html': page('Private', 'disallowed by the moved robots.txt'),
  },
  'robots-cdn.test': {
    '/shared-robots.txt': robotsTxt('User-agent: *\nDisallow: /private/\n'),
  },
};
