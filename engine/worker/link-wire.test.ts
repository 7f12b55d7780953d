import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { packLinks, unpackLinks, type PackedLinks } from './link-wire';
import { LINK_KINDS, type DiscoveredLink } from './protocol';

/** Links of every kind, with and without anchor text, rel and tooLong, in a mixed order. */
function sampleLinks(): DiscoveredLink[] {
  const links: DiscoveredLink[] = [];
  LINK_KINDS.forEach((kind, index) => {
    links.push({ url: `http://a.test/${kind}`, kind });
    links.push({ url: `http://a.test/${kind}/text`, kind, anchorText: `Text ${index}` });
    links.push({ url: `http://a.test/${kind}/rel`, kind, rel: 'nofollow ugc' });
    links.push({ url: `http://a.test/${kind}/both`, kind, anchorText: '', rel: 'sponsored' });
    links.push({ url: 'http://a.test/' + 'x'.repeat(40), kind, tooLong: true, anchorText: 'cut' });
  });
  return links;
}

describe('link-wire', () => {
  it('unpacks exactly the links it packed (absent fields stay absent)', () => {
    const links = sampleLinks();
    const unpacked = unpackLinks(packLinks(links));
    expect(unpacked).toStrictEqual(links);
    expect(Object.keys(unpacked[0]!)).toEqual(['url', 'kind']);
  });

  it('survives the structured clone of a MessagePort', () => {
    const links = sampleLinks();
    const { port1, port2 } = new MessageChannel();
    try {
      port1.postMessage(packLinks(links));
      const received = receiveMessageOnPort(port2)?.message as PackedLinks;
      expect(unpackLinks(received)).toStrictEqual(links);
    } finally {
      port1.close();
    }
  });

  it('packs an empty page to empty arrays', () => {
    const packed = packLinks([]);
    expect(packed.urls).toEqual([]);
    expect(packed.flags.length).toBe(0);
    expect(unpackLinks(packed)).toEqual([]);
  });

  it('refuses a packing that does not add up, naming LINKS_PACKING', () => {
    const packed = packLinks([{ url: 'http://a.test/', kind: 'a', anchorText: 'A' }]);
    expect(() => unpackLinks({ ...packed, anchorTexts: [] })).toThrow(/LINKS_PACKING/);
    expect(() => unpackLinks({ ...packed, urls: [] })).toThrow(/LINKS_PACKING/);
    expect(() => unpackLinks({ ...packed, flags: Uint8Array.of(0x0f) })).toThrow(/LINKS_PACKING: link kind code 15/);
  });
});
