/**
 * Which raw spelling of a URL is worth an alias row (issue 15 part 3). A `#fragment` never reaches
 * a server, so `x#top` tells nothing `x` does not: the spelling is stored without its fragment, and
 * the fragment only counted (`url_aliases.fragment_spellings`, migration 0016). A spelling that differs
 * from the URL by more than a fragment (case, default port, dot segments, query order …) keeps its
 * own alias row, as the URL groups need it to say why spellings differ.
 */
import type { AliasWrite } from '../store/ports';

/**
 * The alias write for a raw spelling met for the URL named `toKey` (`fromUrlId`: the page it was
 * met on; null for a seed): the spelling cut before its first `#`, and `fragmentSpellings` 1 when
 * a fragment was cut (the store adds it to the stored spelling's count), absent otherwise.
 * @example aliasWrite('k', 'http://a.test/x#top', 7) → { toKey: 'k', rawUrl: 'http://a.test/x', fromUrlId: 7, fragmentSpellings: 1 }
 * @example aliasWrite('k', 'HTTP://a.test/x', null) → { toKey: 'k', rawUrl: 'HTTP://a.test/x', fromUrlId: null }
 */
export function aliasWrite(toKey: string, raw: string, fromUrlId: number | null): AliasWrite {
  const hash = raw.indexOf('#');
  if (hash === -1) return { toKey, rawUrl: raw, fromUrlId };
  return { toKey, rawUrl: raw.slice(0, hash), fromUrlId, fragmentSpellings: 1 };
}
