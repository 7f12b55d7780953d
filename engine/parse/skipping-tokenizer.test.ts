import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../tests/support/seeded-random';
import { syntheticResponse } from '../../testweb/synthetic-site';
import { SKIPS_BY_INDEX_OF, SkippingTokenizer } from './skipping-tokenizer';

/** Every callback a tokenizer makes, with its arguments, in order. */
function events(Kind: typeof Tokenizer, chunks: readonly string[], decodeEntities = false): string[] {
  const seen: string[] = [];
  const record = (name: string) => (...args: unknown[]) => void seen.push(`${name}(${args.join(',')})`);
  const callbacks: TokenizerCallbacks = {
    onattribdata: record('attribdata'),
    onattribentity: record('attribentity'),
    onattribend: record('attribend'),
    onattribname: record('attribname'),
    oncdata: record('cdata'),
    onclosetag: record('closetag'),
    oncomment: record('comment'),
    ondeclaration: record('declaration'),
    onend: record('end'),
    onopentagend: record('opentagend'),
    onopentagname: record('opentagname'),
    onprocessinginstruction: record('processinginstruction'),
    onselfclosingtag: record('selfclosingtag'),
    ontext: record('text'),
    ontextentity: record('textentity'),
  };
  const tokenizer = new Kind({ decodeEntities }, callbacks);
  for (const chunk of chunks) tokenizer.write(chunk);
  tokenizer.end();
  return seen;
}

/** Pieces of HTML, well-formed and not, that exercise every skip (text, quoted values, comments, raw text, title). */
const PIECES = [
  'plain text ',
  '<a href="/x?a=1&amp;b=2" rel=\'nofollow next\'>link</a>',
  '<p class="a>b">',
  "<img alt='it''s'>",
  '<!-- a comment -- with -> inside -->',
  '<!--->',
  '<script>if (a < b && "</p>") {}</script>',
  '<style>p > a { color: red }</style>',
  '<title>A &amp; B <b>not a tag</b></title>',
  '<textarea><a href="/no"></textarea>',
  '<![CDATA[ x ]]>',
  '<!DOCTYPE html>',
  '<?xml version="1.0"?>',
  '</p >',
  '<br/>',
  '<svg><path d="M0 0"/></svg>',
  '&lt;&#x41;&nbsp;',
  '< not a tag',
  '<a href="unterminated',
  "<a href='also unterminated",
  '<!-- unterminated comment',
  '<script>unterminated',
  '\n\t  ',
  'ünïcödé — 🙂 ',
];

describe('SkippingTokenizer', () => {
  it('replaces the library skip on htmlparser2 10.1.0 (the version package.json pins)', () => {
    expect(SKIPS_BY_INDEX_OF).toBe(true);
    expect(Object.hasOwn(SkippingTokenizer.prototype, 'fastForwardTo')).toBe(true);
  });

  it('makes the same callbacks as htmlparser2 on a synthetic page, whole and in chunks', () => {
    const page = syntheticResponse({ hosts: 4, pagesPerHost: 80 }, 'h1.synthetic.test', '/p/3').body;
    expect(events(SkippingTokenizer, [page])).toEqual(events(Tokenizer, [page]));
    const chunks = page.match(/[\s\S]{1,777}/g)!;
    expect(events(SkippingTokenizer, chunks)).toEqual(events(Tokenizer, chunks));
  });

  it('makes the same callbacks on 2,000 random documents of hostile pieces, whole and cut at random, entities decoded or not', () => {
    const next = seededRandom(15);
    for (let doc = 0; doc < 2000; doc += 1) {
      const parts: string[] = [];
      const count = 1 + Math.floor(next() * 12);
      for (let i = 0; i < count; i += 1) parts.push(PIECES[Math.floor(next() * PIECES.length)]!);
      const html = parts.join('');
      const cuts: string[] = [];
      for (let at = 0; at < html.length; ) {
        const length = 1 + Math.floor(next() * 40);
        cuts.push(html.slice(at, at + length));
        at += length;
      }
      const decode = doc % 2 === 0;
      expect(events(SkippingTokenizer, [html], decode), html).toEqual(events(Tokenizer, [html], decode));
      expect(events(SkippingTokenizer, cuts, decode), JSON.stringify(cuts)).toEqual(events(Tokenizer, cuts, decode));
    }
  });
});
