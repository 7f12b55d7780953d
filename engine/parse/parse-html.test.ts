import { describe, expect, it } from 'vitest';
import { parseHtml } from './parse-html';

describe('parseHtml', () => {
  describe('link extraction', () => {
    it('extracts a href, area href, frame src, iframe src and link rel=canonical in document order', () => {
      const html = `<html><head><link rel="canonical" href="/canon"><link rel="stylesheet" href="/style.css"></head>
        <body><a href="/a">A</a><map><area href="/area" alt=""></map>
        <frameset><frame src="/frame"></frameset><iframe src="/iframe"></iframe></body></html>`;
      expect(parseHtml(html).links).toEqual([
        { href: '/canon', kind: 'canonical', rel: 'canonical' },
        { href: '/a', kind: 'a', anchorText: 'A' },
        { href: '/area', kind: 'area' },
        { href: '/frame', kind: 'frame' },
        { href: '/iframe', kind: 'iframe' },
      ]);
    });

    it('takes iframe href when there is no src, and prefers src when both are present', () => {
      expect(parseHtml('<iframe href="/only-href"></iframe>').links).toEqual([{ href: '/only-href', kind: 'iframe' }]);
      expect(parseHtml('<iframe src="/src" href="/href"></iframe>').links).toEqual([{ href: '/src', kind: 'iframe' }]);
    });

    it('matches rel=canonical case-insensitively and among other rel tokens', () => {
      expect(parseHtml('<LINK REL="Alternate CANONICAL" HREF="/c">').links).toEqual([{ href: '/c', kind: 'canonical', rel: 'alternate canonical' }]);
      expect(parseHtml('<link rel="canonicalish" href="/no">').links).toEqual([]);
    });

    it('ignores anchors without href, with an empty href, and other elements with href/src', () => {
      const html = '<a name="top">x</a><a href="">e</a><a href="   ">w</a><img src="/i.png"><script src="/s.js"></script><frame href="/wrong-attr">';
      expect(parseHtml(html).links).toEqual([]);
    });

    it('trims whitespace around hrefs', () => {
      expect(parseHtml('<a href="\n  /x  \t">x</a>').links).toEqual([{ href: '/x', kind: 'a', anchorText: 'x' }]);
    });

    it('decodes entities in hrefs', () => {
      const { links } = parseHtml('<a href="/search?q=1&amp;page=2">x</a><a href="/a&#38;b">y</a><a href="/&#x41;">z</a>');
      expect(links.map((l) => l.href)).toEqual(['/search?q=1&page=2', '/a&b', '/A']);
    });

    it('handles uppercase tag and attribute names and unquoted attributes', () => {
      expect(parseHtml('<A HREF=/upper>x</A>').links).toEqual([{ href: '/upper', kind: 'a', anchorText: 'x' }]);
    });
  });

  describe('<base href>', () => {
    it('is null when absent', () => {
      expect(parseHtml('<a href="x">x</a>').baseHref).toBeNull();
    });

    it('the first base with an href wins', () => {
      const html = '<head><base target="_blank"><base href="/first/"><base href="/second/"></head><a href="x">x</a>';
      expect(parseHtml(html).baseHref).toBe('/first/');
    });

    it('is not itself a link', () => {
      expect(parseHtml('<base href="/d/"><a href="x">X</a>').links).toEqual([{ href: 'x', kind: 'a', anchorText: 'X' }]);
    });
  });

  describe('meta robots', () => {
    it.each([
      ['', { noindex: false, nofollow: false }],
      ['<meta name="robots" content="index, follow">', { noindex: false, nofollow: false }],
      ['<meta name="robots" content="nofollow">', { noindex: false, nofollow: true }],
      ['<meta name="robots" content="noindex">', { noindex: true, nofollow: false }],
      ['<meta name="ROBOTS" content="NOINDEX,NOFOLLOW">', { noindex: true, nofollow: true }],
      ['<meta name="robots" content="none">', { noindex: true, nofollow: true }],
      ['<meta name="robots" content="noarchive , nofollow">', { noindex: false, nofollow: true }],
      ['<meta name="description" content="noindex nofollow">', { noindex: false, nofollow: false }],
    ])('%s → %o', (head, expected) => {
      expect(parseHtml(`<html><head>${head}</head><body></body></html>`).metaRobots).toEqual(expected);
    });

    it('accumulates directives from several robots metas', () => {
      const html = '<meta name="robots" content="noindex"><meta name="robots" content="nofollow">';
      expect(parseHtml(html).metaRobots).toEqual({ noindex: true, nofollow: true });
    });
  });

  describe('title', () => {
    it('is null without a title element', () => {
      expect(parseHtml('<p>hi</p>').title).toBeNull();
    });

    it('folds runs of whitespace into one space and trims', () => {
      expect(parseHtml('<title>\n   Hello \t\t  big\n\nworld   </title>').title).toBe('Hello big world');
    });

    it('decodes entities in the title', () => {
      expect(parseHtml('<title>Tom &amp; Jerry &lt;3</title>').title).toBe('Tom & Jerry <3');
    });

    it('keeps the first title only', () => {
      expect(parseHtml('<title>One</title><title>Two</title>').title).toBe('One');
    });

    it('an empty title is the empty string', () => {
      expect(parseHtml('<title>   </title>').title).toBe('');
    });

    it('an unclosed title still yields the text', () => {
      expect(parseHtml('<title>Unclosed   title').title).toBe('Unclosed title');
    });

    it('is capped at 1024 characters', () => {
      const title = parseHtml(`<title>${'x'.repeat(5_000)}</title>`).title;
      expect(title).toHaveLength(1024);
    });
  });

  describe('large and hostile input', () => {
    it('extracts all links of a page with 100 000 links', () => {
      const html = `<html><body>${Array.from({ length: 100_000 }, (_, i) => `<a href="/p${i}">${i}</a>`).join('')}</body></html>`;
      const parsed = parseHtml(html);
      expect(parsed.links).toHaveLength(100_000);
      expect(parsed.linksTruncated).toBe(false);
      expect(parsed.links[0]).toEqual({ href: '/p0', kind: 'a', anchorText: '0' });
      expect(parsed.links[99_999]).toEqual({ href: '/p99999', kind: 'a', anchorText: '99999' });
    });

    it('keeps maxLinks links and sets linksTruncated when there are more', () => {
      const html = Array.from({ length: 100_000 }, (_, i) => `<a href="/p${i}">${i}</a>`).join('');
      const parsed = parseHtml(html, { maxLinks: 1_000 });
      expect(parsed.links).toHaveLength(1_000);
      expect(parsed.links.at(-1)).toEqual({ href: '/p999', kind: 'a', anchorText: '999' });
      expect(parsed.linksTruncated).toBe(true);
      expect(parsed.linksOverCap).toBe(99_000);
    });

    it('exactly maxLinks links is not truncated', () => {
      const parsed = parseHtml('<a href="/1"></a><a href="/2"></a><a href="/3"></a>', { maxLinks: 3 });
      expect(parsed.links).toHaveLength(3);
      expect(parsed.linksTruncated).toBe(false);
      expect(parsed.linksOverCap).toBe(0);
    });

    it('finishes on 50 000 unclosed nested <div>s and still finds a link at the bottom', () => {
      const html = `<title>deep</title>${'<div>'.repeat(50_000)}<a href="/bottom">b</a>`;
      const started = performance.now();
      const parsed = parseHtml(html);
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(parsed.links).toEqual([{ href: '/bottom', kind: 'a', anchorText: 'b' }]);
      expect(parsed.title).toBe('deep');
    });

    it('finishes on 50 000 unclosed <a> tags', () => {
      const parsed = parseHtml('<a href="/x">'.repeat(50_000));
      expect(parsed.links).toHaveLength(50_000);
    });

    it('survives junk: unterminated attributes and stray brackets', () => {
      const parsed = parseHtml('<<a href="/ok">x</a> <a href="/unterminated>y</a> <a href=/z>z');
      expect(parsed.links[0]).toEqual({ href: '/ok', kind: 'a', anchorText: 'x' });
    });
  });
});

describe('parseHtml page analysis (issue 11)', () => {
  describe('anchor text and rel', () => {
    it('is the <a> text with inline tags joined, whitespace collapsed, and the alt of images inside it', () => {
      const { links } = parseHtml('<a href="/x">\n  Read <b>the</b>\tdocs <img src="/i.png" alt="Python logo"> now</a>');
      expect(links).toEqual([{ href: '/x', kind: 'a', anchorText: 'Read the docs Python logo now' }]);
    });

    it('an image-only link has its alt as text; a link without text has none', () => {
      expect(parseHtml('<a href="/i"><img src="/i.png" alt="Home"></a><a href="/e"><img src="/e.png"></a>').links).toEqual([
        { href: '/i', kind: 'a', anchorText: 'Home' },
        { href: '/e', kind: 'a' },
      ]);
    });

    it('an <area> has its alt; an unclosed <a> ends at the next <a>; script text is not anchor text', () => {
      const { links } = parseHtml('<map><area href="/m" alt=" Map  area "></map><a href="/1">one<a href="/2">two<script>x()</script></a><p>after</p>');
      expect(links).toEqual([
        { href: '/m', kind: 'area', anchorText: 'Map area' },
        { href: '/1', kind: 'a', anchorText: 'one' },
        { href: '/2', kind: 'a', anchorText: 'two' },
      ]);
    });

    it('decodes entities and caps anchor text at ANCHOR_TEXT_MAX_CHARS', async () => {
      const { ANCHOR_TEXT_MAX_CHARS } = await import('./parse-html');
      expect(parseHtml('<a href="/t">Tom &amp; Jerry</a>').links[0]!.anchorText).toBe('Tom & Jerry');
      const long = parseHtml(`<a href="/l">${'word '.repeat(100_000)}</a>`).links[0]!.anchorText!;
      expect(long).toHaveLength(ANCHOR_TEXT_MAX_CHARS);
      expect(long.startsWith('word word')).toBe(true);
    });

    it('keeps rel tokens lower case and single-spaced (nofollow, sponsored, ugc); absent when empty', () => {
      const { links } = parseHtml('<a href="/s" rel=" NoFollow\n Sponsored ugc">s</a><a href="/n" rel="">n</a>');
      expect(links).toEqual([
        { href: '/s', kind: 'a', anchorText: 's', rel: 'nofollow sponsored ugc' },
        { href: '/n', kind: 'a', anchorText: 'n' },
      ]);
    });
  });

  describe('page fields', () => {
    it('reads the meta description, first H1, canonical href, robots and googlebot directives and lang', () => {
      const parsed = parseHtml(`<!doctype html><html lang=" de-AT "><head>
        <meta name="Description" content="  A page\n about   things ">
        <meta name="description" content="second">
        <meta name="robots" content="NOINDEX, max-snippet:50">
        <meta name="googlebot" content="noarchive, noindex">
        <link rel="canonical" href=" /canon#top "><link rel="canonical" href="/second">
        </head><body><h1> Main  <em>title</em>
        </h1><h1>Second</h1></body></html>`);
      expect(parsed).toMatchObject({
        metaDescription: 'A page about things',
        h1: 'Main title',
        canonicalHref: '/canon#top',
        robotsDirectives: ['noindex', 'max-snippet:50', 'noarchive'],
        lang: 'de-AT',
      });
      // Link following obeys meta robots only (googlebot directives are recorded, not obeyed).
      expect(parsed.metaRobots).toEqual({ noindex: true, nofollow: false });
    });

    it('is null for each field the page lacks; an empty H1 is the empty string', () => {
      expect(parseHtml('<html><body><h1>  </h1><p>x</p></body></html>')).toMatchObject({ metaDescription: null, h1: '', canonicalHref: null, robotsDirectives: [], lang: null });
    });

    it('an unclosed H1 ends with the document; an <h1> in a script is not the heading', () => {
      expect(parseHtml('<script>"<h1>no</h1>"</script><h1>Unclosed   heading').h1).toBe('Unclosed heading');
    });

    it('caps each stored string whatever the page sends (a 10 MB meta description, H1, lang)', async () => {
      const { H1_MAX_CHARS, META_DESCRIPTION_MAX_CHARS, LANG_MAX_CHARS } = await import('./parse-html');
      const huge = 'x'.repeat(10 * 1024 * 1024);
      const parsed = parseHtml(`<html lang="${huge}"><meta name="description" content="${huge}"><meta name="robots" content="${'a,'.repeat(100_000)}"><h1>${huge}</h1>`);
      expect(parsed.metaDescription).toHaveLength(META_DESCRIPTION_MAX_CHARS);
      expect(parsed.h1).toHaveLength(H1_MAX_CHARS);
      expect(parsed.lang).toHaveLength(LANG_MAX_CHARS);
      expect(parsed.robotsDirectives).toEqual(['a']);
    });
  });
});

describe('parseHtml visible text (for content fingerprints)', () => {
  it('keeps body text and drops script, style, noscript, template and the head', () => {
    const { text } = parseHtml(
      '<html><head><title>T</title><style>p{}</style><script>var x = 1</script></head><body><p>Hello</p><script>alert(1)</script><noscript>no</noscript><template>tpl</template><p>world</p></body></html>',
    );
    expect(text.replace(/\s+/g, ' ').trim()).toBe('Hello world');
  });

  it('finds the body text when </head> is missing', () => {
    expect(parseHtml('<html><head><title>x</title><body>visible text').text.trim()).toBe('visible text');
  });

  it('caps the kept text at maxTextChars', () => {
    expect(parseHtml(`<p>${'word '.repeat(1000)}</p>`, { maxTextChars: 100 }).text.length).toBe(100);
  });

  it('keeps an entity inside its word, and separates text on either side of a tag', () => {
    expect(parseHtml('<p>caf&eacute; na&#xEF;ve</p><p>next</p>').text).toBe('café naïve next');
    expect(parseHtml('<p>Hel<b>lo</b></p>').text).toBe('Hel lo');
  });

  it('ends <head> at the first start tag or text that cannot be in it (HTML Standard 13.2.6.4.4)', () => {
    expect(parseHtml('<html><head><title>x</title><p>para</p>').text).toBe('para');
    expect(parseHtml('<head><meta charset="utf-8">loose text').text).toBe('loose text');
    expect(parseHtml('<head><style>p{}</style>\n  <link rel="x" href="/y"></head><body>b</body>').text).toBe('b');
  });

  it('closes a self-closing <svg/> but not a self-closing HTML element', () => {
    expect(parseHtml('<svg/><p>after svg</p>').text).toBe('after svg');
    expect(parseHtml('<svg><title>icon</title><path d="M0"/></svg><p>after</p>').text).toBe('after');
    expect(parseHtml('<iframe src="/f"/><p>inside the iframe</p></iframe><p>after</p>').text).toBe('after');
  });

  it('does not take the title of an inline svg as the page title', () => {
    expect(parseHtml('<body><svg><title>icon</title></svg><title>Page</title></body>').title).toBe('Page');
  });
});
