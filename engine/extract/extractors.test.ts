import { describe, expect, it } from 'vitest';
import { parseExtractor, extractorText, type Extractor } from '../../shared/types/extraction';
import { CompiledExtractors } from './extractors';

const ex = (text: string): Extractor => {
  const parsed = parseExtractor(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
};

const PAGE = `<html><head><title>Kettle</title>
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebPage"},{"@type":["Product"],"name":"Kettle","brand":{"@type":"Brand","name":"Acme"},"offers":[{"@type":"Offer","price":12.5},{"@type":"Offer","price":"11.00"}]}]}</script>
<script type="application/ld+json">{ not json</script></head>
<body><span class="price">  12.50 </span><span class="price">11.00</span><img src="/a.jpg"><img src="/b.jpg">
<div itemscope itemtype="http://schema.org/Product"><span itemprop="name">Kettle (microdata)</span>
<div itemprop="offers" itemscope itemtype="http://schema.org/Offer"><meta itemprop="price" content="9.99"></div>
<div itemprop="review" itemscope itemtype="http://schema.org/Review"><span itemprop="name">Not the product's name</span></div></div>
<p>SKU-1001 and SKU-2002</p></body></html>`;

describe('parseExtractor', () => {
  it('reads the three kinds, the modes and a css attribute, and writes them back', () => {
    expect(ex('price=css:.price')).toEqual({ name: 'price', kind: 'css', expression: '.price', mode: 'first' });
    expect(ex('images:all=css:img@src')).toEqual({ name: 'images', kind: 'css', expression: 'img', attribute: 'src', mode: 'all' });
    expect(ex('mail=css:a[href^="mailto:a@b"]')).toMatchObject({ expression: 'a[href^="mailto:a@b"]' });
    expect(ex('mail=css:a[href^="mailto:a@b"]').attribute).toBeUndefined();
    expect(ex('skus:count=regex:SKU-([0-9]+)')).toEqual({ name: 'skus', kind: 'regex', expression: 'SKU-([0-9]+)', mode: 'count' });
    for (const text of ['images:all=css:img@src', 'price=schema:Product.offers.price', 'n:count=regex:a=b']) expect(extractorText(ex(text))).toBe(text);
  });

  it.each([
    ['no equals sign', 'price'],
    ['a bad name', '9price=css:.p'],
    ['an unknown mode', 'price:some=css:.p'],
    ['an unknown kind', 'price=xpath://span'],
    ['an empty expression', 'price=css:  '],
    ['a schema path without a field', 'price=schema:Product'],
  ])('refuses %s with INVALID_EXTRACTOR', (_what, text) => {
    expect(parseExtractor(text)).toMatchObject({ ok: false, error: { code: 'INVALID_EXTRACTOR' } });
  });
});

describe('CompiledExtractors', () => {
  it('runs css (text, attribute), regex and schema (JSON-LD and microdata) extractors in each mode', () => {
    const compiled = CompiledExtractors.compile(
      ['price=css:.price', 'prices:all=css:.price', 'images:count=css:img', 'image=css:img@src', 'sku=regex:SKU-([0-9]+)', 'skus:all=regex:SKU-[0-9]+', 'missing=css:.nope', 'brand=schema:Product.brand.name', 'offer:all=schema:Product.offers.price', 'name:all=schema:Product.name'].map(ex),
    );
    expect(compiled.run(PAGE)).toEqual({
      price: '12.50',
      prices: ['12.50', '11.00'],
      images: 2,
      image: '/a.jpg',
      sku: '1001',
      skus: ['SKU-1001', 'SKU-2002'],
      missing: null,
      brand: 'Acme',
      // JSON-LD first (both offers of the @graph's Product; the broken block skipped), then microdata (not the nested review's name).
      offer: ['12.5', '11.00', '9.99'],
      name: ['Kettle', 'Kettle (microdata)'],
    });
  });

  it('refuses a selector cheerio cannot parse, a backtracking regex and a repeated name, naming the extractor', () => {
    expect(() => CompiledExtractors.compile([ex('bad=css:p[[')])).toThrow(expect.objectContaining({ code: 'INVALID_EXTRACTOR', message: expect.stringContaining('"bad"') }));
    expect(() => CompiledExtractors.compile([ex('slow=regex:(a+)+\\1')])).toThrow(expect.objectContaining({ code: 'INVALID_EXTRACTOR' }));
    expect(() => CompiledExtractors.compile([ex('a=css:p'), ex('a=css:div')])).toThrow(expect.objectContaining({ code: 'INVALID_EXTRACTOR', message: expect.stringContaining('Two extractors') }));
  });

  it('finds nothing, rather than failing the page, where an extractor throws', () => {
    const compiled = CompiledExtractors.compile([ex('sku=regex:SKU-([0-9]+)'), ex('n:count=regex:p')]);
    // Not a string: the regex path throws inside (no matchAll); the results are empty, not an exception.
    expect(compiled.run(null as unknown as string)).toEqual({ sku: null, n: 0 });
    expect(compiled.run('<p>SKU-7</p>')).toEqual({ sku: '7', n: 2 });
  });

  it('cuts long values and long lists, and counts past the list cap', () => {
    const html = `<ul>${'<li>x</li>'.repeat(150)}</ul><p>${'y'.repeat(5000)}</p>`;
    const result = CompiledExtractors.compile([ex('items:all=css:li'), ex('n:count=css:li'), ex('long=css:p')]).run(html);
    expect(result['items']).toHaveLength(100);
    expect(result['n']).toBe(150);
    expect((result['long'] as string).length).toBe(2000);
  });
});
