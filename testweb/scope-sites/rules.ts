/**
 * Fixture hosts of issue 12 parts 2 and 3 (list mode, seeds only, include / exclude URL patterns,
 * per-link rel="nofollow"); tests/integration/scope-rules.test.ts says what a crawl of each must do.
 */
import type http from 'node:http';
import { html, sendHtml, type Handler } from '../fixture-sites';

const page = (title: string, body: string): Handler => (_req, res) => sendHtml(res, html(title, body));
const redirect = (location: string): Handler => (_req: http.IncomingMessage, res: http.ServerResponse) => {
  res.writeHead(301, { location });
  res.end();
};

/** Products of shop.test, each linking to the next one and to its reviews. */
export const SHOP_PRODUCTS = 6;

export const RULES_SITES: Record<string, Record<string, Handler>> = {
  // A small shop: products, a blog, reviews, a cart with a session parameter, and two moved URLs
  // (one to another host), for list mode and the URL patterns.
  'shop.test': {
    '/': page(
      'Shop',
      `<a href="/products/1.html">first product</a> <a href="/blog/launch.html">blog</a> <a href="/about.html">about</a>
       <a href="/products/sale.html?session=42">sale</a> <a href="/cart?session=42">cart</a>`,
    ),
    ...Object.fromEntries(
      Array.from({ length: SHOP_PRODUCTS }, (_, i): [string, Handler] => {
        const n = i + 1;
        const next = n < SHOP_PRODUCTS ? `<a href="/products/${n + 1}.html">next</a>` : '<a href="/">home</a>';
        return [`/products/${n}.html`, page(`Product ${n}`, `${next} <a href="/reviews/${n}.html">reviews</a>`)];
      }),
    ),
    ...Object.fromEntries(Array.from({ length: SHOP_PRODUCTS }, (_, i): [string, Handler] => [`/reviews/${i + 1}.html`, page(`Reviews ${i + 1}`, 'five stars')])),
    '/products/sale.html': page('Sale', 'half price'),
    '/cart': page('Cart', 'empty'),
    '/blog/launch.html': page('Launch', '<a href="/blog/second.html">next post</a>'),
    '/blog/second.html': page('Second post', 'more'),
    '/about.html': page('About', 'who we are'),
    '/old-product': redirect('/products/3.html'),
    '/moved': redirect('http://shop-new.test/landing.html'),
  },
  'shop-new.test': {
    '/landing.html': page('New shop', '<a href="/elsewhere.html">elsewhere</a>'),
    '/elsewhere.html': page('Elsewhere', 'never in the list'),
  },
  // Per-link rel tokens: nofollow, ugc and sponsored refuse a link (link-nofollow); others do not.
  'rel.test': {
    '/': page(
      'Rel tokens',
      `<a href="/plain.html">plain</a> <a href="/nofollow.html" rel="nofollow">nofollow</a>
       <a href="/comment.html" rel="UGC">user comment</a> <a href="/ad.html" rel="sponsored noopener">ad</a>
       <a href="/noopener.html" rel="noopener noreferrer">noopener</a> <a href="/near-miss.html" rel="nofollowing">not a token</a>
       <area href="/map-area.html" rel="nofollow" alt="area">`,
    ),
    '/plain.html': page('Plain', 'followed'),
    '/nofollow.html': page('Nofollow target', '<a href="/behind-nofollow.html">deeper</a>'),
    '/behind-nofollow.html': page('Behind', 'only reachable through a nofollow link'),
    '/comment.html': page('Comment link', 'ugc'),
    '/ad.html': page('Ad', 'sponsored'),
    '/noopener.html': page('Noopener', 'followed'),
    '/near-miss.html': page('Near miss', 'followed: nofollowing is not nofollow'),
    '/map-area.html': page('Area', 'an area link with nofollow'),
  },
};
