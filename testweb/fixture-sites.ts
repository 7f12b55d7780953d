import type http from 'node:http';
import zlib from 'node:zlib';

/** A fixture route. */
export type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void | Promise<void>;

export const html = (title: string, body: string, head = ''): string =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;

export function sendHtml(response: http.ServerResponse, content: string | Buffer, status = 200, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(Buffer.byteLength(content)), ...headers });
  response.end(content);
}

const redirect = (location: string, status = 301): Handler => (_req, res) => {
  res.writeHead(status, { location });
  res.end();
};
const page = (title: string, body: string, head = ''): Handler => (_req, res) => sendHtml(res, html(title, body, head));
/** A script served as application/javascript. */
const script = (body: string): Handler => (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/javascript', 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
};
const robotsTxt = (text: string, status = 200): Handler => (_req, res) => {
  res.writeHead(status, { 'content-type': 'text/plain' });
  res.end(text);
};

/** login.test's pages behind its login: 403 unless the request carries the session cookie its /login set. */
const signedIn =
  (content: string, contentType = 'text/html; charset=utf-8'): Handler =>
  (req, res) => {
    if (!/(^|;\s*)sid=s-42(;|$)/.test(req.headers.cookie ?? '')) {
      res.writeHead(403, { 'content-type': 'text/plain' });
      res.end('sign in first');
      return;
    }
    sendHtml(res, content, 200, { 'content-type': contentType });
  };

let bomb: Buffer | null = null;
/**
 * 200 MB of zeros as gzip (about 200 KB on the wire): one compressed 1 MiB member repeated 200
 * times (RFC 1952 §2.2 allows concatenated members), so building it never blocks the server.
 */
function gzipBomb(): Buffer {
  if (!bomb) {
    const member = zlib.gzipSync(Buffer.alloc(1024 * 1024), { level: 9 });
    bomb = Buffer.concat(Array.from({ length: 200 }, () => member));
  }
  return bomb;
}

/** ~300 words drawn deterministically from a 120-word vocabulary (a long article for near-duplicates). */
const ARTICLE = (() => {
  const vocabulary = Array.from({ length: 120 }, (_, i) => `term${i.toString(36)}`);
  let state = 7;
  return Array.from({ length: 300 }, () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return vocabulary[state % vocabulary.length];
  }).join(' ');
})();

const PROSE = `The quick brown fox jumps over the lazy dog while the crawler reads every word of this page about
foxes dogs and the habits of animals in the forest near the river where the old mill stands beside the bridge`;

/**
 * Every fixture host and its routes. Each host is one edge case of issue 4's fixture web; the
 * tests in tests/integration/fixture-web.test.ts state what a user should see for each.
 */
export const FIXTURE_SITES: Record<string, Record<string, Handler>> = {
  // A small site with a known page set: relative links, <base href>, a redirect, a 404, offsite and non-HTTP links.
  'site.test': {
    '/': page(
      'Fixture home',
      `<a href="/a.html">A</a> <a href="b.html#part">B</a> <a href="/docs/">Docs</a> <a href="/old">Old</a>
       <a href="/missing.html">Missing</a> <a href="http://elsewhere.test/">Offsite</a>
       <a href="mailto:someone@site.test">Mail</a> <a href="javascript:void(0)">JS</a> <a href="HTTP://SITE.TEST:80/a.html">A again</a>`,
    ),
    '/a.html': page('Page A', '<a href="/">Home</a> <a href="./b.html">B</a>'),
    '/b.html': page('Page B', '<a href="/a.html">A</a>'),
    '/docs/': page('Docs', '<a href="intro.html">Intro</a>', '<base href="/docs/guide/">'),
    '/docs/guide/intro.html': page('Intro', '<a href="../../a.html">A</a>'),
    '/old': redirect('/new.html'),
    '/new.html': page('New', 'Moved here'),
  },
  // Redirect chains, a loop, and a chain longer than the default limit of 10.
  'redirects.test': {
    '/': page('Redirects', '<a href="/chain/1">chain</a> <a href="/loop/a">loop</a> <a href="/long/0">long</a>'),
    '/chain/1': redirect('/chain/2', 302),
    '/chain/2': redirect('/chain/3', 307),
    '/chain/3': redirect('/final.html', 308),
    '/final.html': page('Final', 'End of the chain'),
    '/loop/a': redirect('/loop/b'),
    '/loop/b': redirect('/loop/a'),
    ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`/long/${i}`, redirect(`/long/${i + 1}`)])),
    '/long/12': page('Too far', 'never reached'),
  },
  // robots.txt with Disallow, Allow and Crawl-delay.
  'robots.test': {
    '/robots.txt': robotsTxt('User-agent: *\nDisallow: /private/\nAllow: /private/public.html\nCrawl-delay: 0.2\n\nUser-agent: OtherBot\nDisallow: /\n'),
    '/': page('Robots', '<a href="/open.html">open</a> <a href="/private/secret.html">secret</a> <a href="/private/public.html">public</a>'),
    '/open.html': page('Open', 'ok'),
    '/private/secret.html': page('Secret', 'must never be fetched'),
    '/private/public.html': page('Public', 'allowed by Allow'),
  },
  // robots.txt answering 500: the host is treated as disallowed and retried, then given up.
  'robots500.test': {
    '/robots.txt': robotsTxt('oops', 500),
    '/': page('Robots 500', '<a href="/a.html">a</a>'),
  },
  // robots.txt answering 404: everything is allowed.
  'robots404.test': {
    '/robots.txt': robotsTxt('not here', 404),
    '/': page('Robots 404', '<a href="/a.html">a</a>'),
    '/a.html': page('A', 'ok'),
  },
  // A crawler trap: an endless calendar, each month linking to the next.
  'trap.test': {
    '/': page('Calendar', '<a href="/calendar/2026/1">January</a>'),
  },
  // Session ids in URLs: every page links to the others with a fresh session id.
  'session.test': {
    '/': page('Session', '<a href="/item?PHPSESSID=abc123">item</a> <a href="/item?PHPSESSID=def456">item again</a> <a href="/item;jsessionid=XYZ">item jsession</a> <a href="/other?utm_source=mail&id=2">other</a>'),
    '/item': page('Item', '<a href="/?sid=99">home</a>'),
    '/item;jsessionid=XYZ': page('Item', 'same item'),
    '/other': page('Other', '<a href="/other?id=2&utm_campaign=x">self</a>'),
  },
  // Duplicate content under different URLs, and near-duplicates. Known groups: exact {/a.html,
  // /a-copy.html}; near {/near-1.html, /near-2.html} (the last sentence differs; estimated Jaccard 0.97).
  'dup.test': {
    '/': page('Dup', '<a href="/a.html">a</a> <a href="/a-copy.html">copy</a> <a href="/near-1.html">n1</a> <a href="/near-2.html">n2</a> <a href="/different.html">d</a>'),
    '/a.html': page('Story', `<p>${PROSE}</p>`),
    '/a-copy.html': page('Story (copy)', `<div><p>${PROSE}</p></div>`),
    '/near-1.html': page('Near', `<p>${ARTICLE}</p><p>Filed by the night clerk on Monday.</p>`),
    '/near-2.html': page('Near', `<p>${ARTICLE}</p><p>Signed by the day judge on Friday.</p>`),
    '/different.html': page('Different', '<p>Completely unrelated text about databases, indexes, transactions and checkpoints in storage engines.</p>'),
  },
  // Hostile responses: slow, reset, huge, a decompression bomb, binary served as HTML.
  'hostile.test': {
    '/': page('Hostile', '<a href="/slow">slow</a> <a href="/reset">reset</a> <a href="/huge">huge</a> <a href="/bomb">bomb</a> <a href="/binary.html">binary</a>'),
    '/slow': (_req, res) => {
      const timer = setTimeout(() => sendHtml(res, html('Slow', 'finally')), 5_000);
      res.once('close', () => clearTimeout(timer));
    },
    '/reset': (req) => {
      req.socket.destroy();
    },
    '/huge': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      const chunk = Buffer.alloc(1024 * 1024, 'a');
      let sent = 0;
      const write = () => {
        while (sent < 50) {
          sent += 1;
          if (!res.write(chunk)) return void res.once('drain', write);
        }
        res.end();
      };
      res.once('close', () => (sent = 50));
      write();
    },
    '/bomb': (_req, res) => {
      const body = gzipBomb();
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip', 'content-length': String(body.length) });
      res.end(body);
    },
    '/binary.html': (_req, res) => {
      const bytes = Buffer.alloc(64 * 1024);
      for (let i = 0; i < bytes.length; i += 1) bytes[i] = (i * 7919 + 13) % 256;
      sendHtml(res, bytes);
    },
  },
  // Legacy encodings.
  'charset.test': {
    '/': page('Charsets', '<a href="/cp1252.html">cp1252</a> <a href="/sjis.html">sjis</a>'),
    '/cp1252.html': (_req, res) => {
      const body = Buffer.concat([Buffer.from('<html><head><title>'), Buffer.from([0x93, 0x51, 0x75, 0x6f, 0x74, 0x65, 0x64, 0x94, 0x20, 0x80, 0x35]), Buffer.from('</title></head><body>x</body></html>')]);
      res.writeHead(200, { 'content-type': 'text/html; charset=windows-1252' });
      res.end(body);
    },
    '/sjis.html': (_req, res) => {
      // 日本語 in Shift_JIS, declared only in <meta charset>.
      const body = Buffer.concat([Buffer.from('<html><head><meta charset="Shift_JIS"><title>'), Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]), Buffer.from('</title></head><body>x</body></html>')]);
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(body);
    },
  },
  // A page with 100,000 links.
  'links.test': {
    '/': (_req, res) => {
      const links = Array.from({ length: 100_000 }, (_, i) => `<a href="/p/${i}">${i}</a>`).join('\n');
      sendHtml(res, html('Many links', links));
    },
  },
  // Frames and iframes (seed 004: FRAME SRC, IFRAME HREF).
  'frames.test': {
    '/': (_req, res) => sendHtml(res, '<html><head><title>Frames</title></head><frameset><frame src="/left.html"><frame src="/right.html"></frameset></html>'),
    '/left.html': page('Left', '<iframe src="/inner.html"></iframe> <iframe href="/legacy.html"></iframe>'),
    '/right.html': page('Right', 'right'),
    '/inner.html': page('Inner', 'inner'),
    '/legacy.html': page('Legacy', 'iframe href'),
  },
  // What the results workbench analyses (issue 11): meta description, H1, canonical, robots
  // directives in meta tags and headers, lang, anchor text with image alt, rel tokens. Every
  // indexability verdict has a page: indexable (/), noindex, canonicalised, non-200 (/gone.html).
  'analysis.test': {
    '/': (_req, res) =>
      sendHtml(
        res,
        `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>Analysis</title>
        <meta name="description" content="  The analysis   fixture's home page ">
        <link rel="canonical" href="HTTP://ANALYSIS.TEST:80/#top"></head>
        <body><h1>Welcome <em>home</em></h1><p>Four words of text.</p>
        <a href="/noindex.html">No <b>index</b></a> <a href="/canonicalised.html"><img src="/logo.png" alt="Canonical logo"></a>
        <a href="/headers.html" rel="NoFollow">Header directives</a> <a href="/ad.html" rel="sponsored ugc">Ad</a> <a href="/gone.html">Gone</a></body></html>`,
      ),
    '/noindex.html': page('Noindex', 'hidden from search', '<meta name="robots" content="noindex, follow"><meta name="googlebot" content="noarchive">'),
    '/canonicalised.html': page('Canonicalised', 'a copy', '<link rel="canonical" href="/">'),
    '/headers.html': (_req, res) => sendHtml(res, '<p>Directives in headers</p>', 200, { 'x-robots-tag': 'noindex, nosnippet', 'content-language': 'de', link: '</>; rel="canonical"' }),
    '/ad.html': page('Ad', 'sponsored'),
  },
  // A hostile page for the same fields: megabytes of meta description, H1, anchor text and rel (8.4 MB, under the 10 MB body cap).
  'bigmeta.test': {
    '/': (_req, res) => {
      const huge = 'word '.repeat(500_000);
      sendHtml(res, html('Big meta', `<h1>${huge}</h1><a href="/x" rel="${'nofollow '.repeat(100_000)}">${huge}</a>`, `<meta name="description" content="${huge}">`));
    },
  },
  // Meta robots nofollow: links on the page are not followed.
  'nofollow.test': {
    '/': page('Nofollow', '<a href="/hidden.html">hidden</a>', '<meta name="robots" content="nofollow">'),
    '/hidden.html': page('Hidden', 'only reachable by ignoring nofollow'),
  },
  // Slow pages (100 ms each): requests overlap, so per-host concurrency limits are visible.
  'slowpages.test': {
    '/': page('Slow pages', Array.from({ length: 20 }, (_, i) => `<a href="/s/${i}">${i}</a>`).join(' ')),
  },
  // 429 Too Many Requests with Retry-After, then 200.
  'busy.test': {
    '/': (() => {
      let calls = 0;
      return (_req: http.IncomingMessage, res: http.ServerResponse) => {
        calls += 1;
        if (calls % 2 === 1) sendHtml(res, html('Busy', 'come back later'), 429, { 'retry-after': '1' });
        else sendHtml(res, html('Served', 'second time lucky'));
      };
    })(),
  },
  // Links to files (issue 5 flow b): three PDFs and a ZIP. With the default "Ignore Links To"
  // list the ZIP link is refused and the PDFs are fetched; with "pdf" added, all four are refused.
  // Issue 14 (request settings): a Basic-auth area (user "crawler", password "s3cret pass"), a
  // cookie-gated page (Cookie: session=letmein) and a page that wants an API key header.
  'private.test': {
    '/': page('Private', '<a href="/members/">members</a> <a href="/cookie.html">cookie</a> <a href="/api.html">api</a>'),
    '/members/': (req, res) => {
      if (req.headers.authorization !== `Basic ${Buffer.from('crawler:s3cret pass').toString('base64')}`) {
        res.writeHead(401, { 'www-authenticate': 'Basic realm="members"', 'content-type': 'text/plain' });
        res.end('credentials needed');
        return;
      }
      sendHtml(res, html('Members', '<a href="/members/list.html">list</a>'));
    },
    '/members/list.html': (req, res) => {
      if (req.headers.authorization !== `Basic ${Buffer.from('crawler:s3cret pass').toString('base64')}`) {
        res.writeHead(401, { 'www-authenticate': 'Basic realm="members"' });
        res.end();
        return;
      }
      sendHtml(res, html('Member list', '<p>Ada, Grace</p>'));
    },
    '/cookie.html': (req, res) => {
      if (!/(^|;\s*)session=letmein(;|$)/.test(req.headers.cookie ?? '')) {
        res.writeHead(403, { 'content-type': 'text/plain' });
        res.end('no session');
        return;
      }
      sendHtml(res, html('Cookie area', '<p>welcome back</p>'));
    },
    '/api.html': (req, res) => {
      if (req.headers['x-api-key'] !== 'k-123') {
        res.writeHead(403, { 'content-type': 'text/plain' });
        res.end('no key');
        return;
      }
      sendHtml(res, html('API', '<p>data</p>'));
    },
  },
  // Issue 14 (cookie jar): a login that sets a session cookie and redirects into an account area
  // that answers 403 without it; a page setting a cookie for another site's domain (refused by
  // RFC 6265 §5.3 step 6) and one setting a cookie for this host's /prefs/ path only.
  'login.test': {
    '/': page('Shop', '<a href="/login">sign in</a> <a href="/elsewhere.html">elsewhere</a>'),
    '/login': (_req, res) => {
      res.writeHead(302, { location: '/account/', 'set-cookie': ['sid=s-42; Path=/; HttpOnly; SameSite=Lax', 'seen=1; Path=/prefs/'] });
      res.end();
    },
    '/account/': signedIn(html('Account', '<a href="/account/orders.html">orders</a> <a href="/prefs/">preferences</a>')),
    '/account/orders.html': signedIn(html('Orders', '<p>two orders</p>')),
    // Names the cookies it got (not their values) in its title, so a test sees which reach /prefs/.
    '/prefs/': (req, res) => {
      const names = (req.headers.cookie ?? '').split(';').map((pair) => pair.split('=')[0]!.trim()).filter((name) => name !== '');
      sendHtml(res, html(`Prefs ${names.sort().join(',') || 'none'}`, '<p>preferences</p>'));
    },
    '/elsewhere.html': (_req, res) => sendHtml(res, html('Elsewhere', '<p>hi</p>'), 200, { 'set-cookie': 'evil=1; Domain=example.org; Path=/' }),
    // An app shell (not linked from /) whose script asks /api/me.json, behind the login, for the
    // members' page to link: rendered with the session cookie, the link appears (render.test.ts).
    '/app.html': page('Members app', '<div id="app"></div><script src="/app-me.js"></script>'),
    '/app-me.js': script(
      `fetch('/api/me.json').then(function (r) { return r.ok ? r.json() : null; }).then(function (me) {
  if (!me) return;
  var a = document.createElement('a');
  a.href = me.home;
  a.textContent = 'members';
  document.getElementById('app').appendChild(a);
});`,
    ),
    '/api/me.json': signedIn(JSON.stringify({ home: '/members-only.html' }), 'application/json'),
    '/members-only.html': signedIn(html('Members only', '<p>for members</p>')),
  },
  // Issue 14 (custom extraction): product pages with a visible price, schema.org JSON-LD (one in an
  // @graph) and one in microdata only; a page that is not a product.
  'products.test': {
    '/': page('Shop', '<a href="/p/1">Kettle</a> <a href="/p/2">Toaster</a> <a href="/p/3">Lamp</a> <a href="/about">About</a>'),
    '/p/1': page(
      'Kettle',
      '<h1>Kettle</h1><span class="price">12.50</span><img class="hero" src="/img/kettle.jpg" alt="kettle"><span class="sku">SKU-1001</span>',
      `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'Product', name: 'Kettle', sku: '1001', brand: { '@type': 'Brand', name: 'Acme' }, offers: { '@type': 'Offer', price: '12.50', priceCurrency: 'EUR' } })}</script>`,
    ),
    '/p/2': page(
      'Toaster',
      '<h1>Toaster</h1><span class="price">30.00</span> <span class="price old">35.00</span><span class="sku">SKU-1002</span>',
      `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@graph': [{ '@type': 'WebPage', name: 'Toaster page' }, { '@type': ['Product'], name: 'Toaster', brand: { '@type': 'Brand', name: 'Brava' }, offers: [{ '@type': 'Offer', price: 30, priceCurrency: 'EUR' }] }] })}</script><script type="application/ld+json">{ broken json</script>`,
    ),
    '/p/3': page(
      'Lamp',
      '<div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Lamp</h1><span class="price">8.99</span><div itemprop="brand" itemscope itemtype="https://schema.org/Brand"><span itemprop="name">Lumo</span></div><div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><meta itemprop="price" content="8.99"><meta itemprop="priceCurrency" content="EUR"></div></div><span class="sku">SKU-1003</span>',
    ),
    '/about': page('About', '<p>We sell things.</p>'),
  },
  // Issue 14 (WARC): one page served byte for byte at two URLs (a revisit record), a gzip-encoded
  // page (archived decoded), a redirect and a 404 page (their answers archived too).
  'archive.test': {
    '/': page('Archive', '<a href="/story.html">story</a> <a href="/print/story.html">print</a> <a href="/gz.html">gz</a> <a href="/old">old</a> <a href="/gone.html">gone</a>'),
    '/story.html': page('Story', `<p>${PROSE}</p>`),
    '/print/story.html': page('Story', `<p>${PROSE}</p>`),
    '/gz.html': (_req, res) => {
      const body = zlib.gzipSync(html('Compressed', `<p>${ARTICLE}</p><a href="/">home</a>`));
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip', 'content-length': String(body.length) });
      res.end(body);
    },
    '/old': redirect('/new.html'),
    '/new.html': page('New', '<p>Moved here.</p>'),
  },
  // Issue 14 part 3 (JavaScript rendering): an app shell whose links and text a script inserts
  // (and which tries a robots.txt-disallowed JSON file, a host outside the resolver map and an
  // image), its targets, a page whose inline script never ends, and a static page with plenty of
  // text (and a script) that `--render auto` leaves alone.
  'spa.test': {
    '/robots.txt': robotsTxt('User-agent: *\nDisallow: /private/\n'),
    '/': page(
      'App shell',
      '<div id="app"></div><noscript>Please enable JavaScript.</noscript><a href="/static.html">static</a> <a href="/loop.html">loop</a><script src="/app.js"></script>',
    ),
    '/app.js': script(
      `(function () {
  var app = document.getElementById('app');
  app.innerHTML = '<h1>Catalogue</h1><p>Rendered by a script.</p><a href="/js-only-1.html">first</a> <a href="/js-only-2.html#top">second</a> <a href="/static.html">static again</a>';
  var img = document.createElement('img');
  img.src = '/logo.png';
  document.body.appendChild(img);
  var other = document.createElement('script');
  other.src = 'http://elsewhere.invalid/x.js';
  document.head.appendChild(other);
  fetch('/private/data.json').then(function (r) { return r.json(); }).then(function (data) {
    var a = document.createElement('a'); a.href = data.next; a.textContent = 'secret'; app.appendChild(a);
  }).catch(function () {});
  fetch('/api/more.json').then(function (r) { return r.json(); }).then(function (data) {
    var a = document.createElement('a'); a.href = data.next; a.textContent = 'from api'; app.appendChild(a);
  });
})();`,
    ),
    '/api/more.json': (_req, res) => {
      const body = JSON.stringify({ next: '/js-only-3.html' });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
      res.end(body);
    },
    '/private/data.json': (_req, res) => {
      const body = JSON.stringify({ next: '/private/secret.html' });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
      res.end(body);
    },
    '/logo.png': (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': '0' });
      res.end();
    },
    '/js-only-1.html': page('JS only 1', '<p>Reached through a script-inserted link.</p><a href="/">home</a>'),
    '/js-only-2.html': page('JS only 2', '<p>Reached through a script-inserted link too.</p>'),
    '/js-only-3.html': page('JS only 3', '<p>Reached through a link built from fetched JSON.</p>'),
    // Its render fails (RENDER_TIMEOUT); the cookie its answer set is kept all the same.
    '/loop.html': (_req, res) => sendHtml(res, html('Loop', '<p>Never finishes.</p><script>while (true) {}</script><a href="/after-loop.html">after</a>'), 200, { 'set-cookie': 'visit=loop-1; Path=/' }),
    '/after-loop.html': page('After loop', '<p>Linked from the looping page.</p>'),
    '/static.html': page('Static', `<p>${PROSE}</p><p>${PROSE}</p><a href="/">home</a><script src="/static-probe.js"></script>`),
    '/static-probe.js': script('document.title = "rendered";'),
  },
  'files.test': {
    '/': page('Files', '<a href="/report.pdf">report</a> <a href="/slides.pdf">slides</a> <a href="/notes.html">notes</a> <a href="/archive.zip">archive</a>'),
    '/notes.html': page('Notes', '<a href="/">home</a> <a href="/appendix.pdf">appendix</a>'),
    ...Object.fromEntries(
      ['/report.pdf', '/slides.pdf', '/appendix.pdf'].map((path): [string, Handler] => [
        path,
        (_req, res) => {
          const body = Buffer.from('%PDF-1.4\n%fixture\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
          res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(body.length) });
          res.end(body);
        },
      ]),
    ),
    '/archive.zip': (_req, res) => {
      const body = Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array<number>(18).fill(0)]);
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(body.length) });
      res.end(body);
    },
  },
};

/** Routes with a variable part: the calendar trap, the many-links targets. */
export function dynamicRoute(host: string, path: string): Handler | undefined {
  if (host === 'trap.test') {
    const match = /^\/calendar\/(\d+)\/(\d+)$/.exec(path);
    if (!match) return undefined;
    const year = Number(match[1]);
    const month = Number(match[2]);
    const next = month === 12 ? `/calendar/${year + 1}/1` : `/calendar/${year}/${month + 1}`;
    return page(`Calendar ${year}-${month}`, `<a href="${next}">next month</a>`);
  }
  if (host === 'links.test' && /^\/p\/\d+$/.test(path)) return page('Target', 'leaf');
  if (host === 'slowpages.test' && /^\/s\/\d+$/.test(path)) {
    return (_req, res) => {
      const timer = setTimeout(() => sendHtml(res, html('Slow page', 'leaf')), 100);
      res.once('close', () => clearTimeout(timer));
    };
  }
  return undefined;
}
