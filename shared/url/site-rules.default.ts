/**
 * The site rules shipped with Crawlbench. The same document is resources/tld/site-rules.json
 * (the editable copy the app loads); tests/url/resources.test.ts fails if the two drift apart.
 */
import type { SiteRuleSet } from './site-rules';

/**
 * Default site rules: Wikipedia `/w/index.php?title=X` → `/wiki/X` (seed 001) and Stack Overflow
 * `/q/ID`, `/questions/ID/any-slug` → `https://stackoverflow.com/questions/ID` (seed 001's example).
 */
export const DEFAULT_SITE_RULES: SiteRuleSet = {
  version: 1,
  rules: [
    {
      id: 'wikipedia-index-php-title',
      description: 'MediaWiki article views through index.php are the /wiki/ article (other parameters such as action=edit or oldid select another view, so they block the rewrite).',
      hosts: ['*.wikipedia.org'],
      path: '/w/index.php',
      query: { title: '{title}' },
      otherQuery: 'forbid',
      to: '/wiki/{title}',
      spaces: '_',
    },
    {
      id: 'stackoverflow-question-short',
      description: 'Stack Overflow short question links (/q/ID, /q/ID/USER) are the question page.',
      hosts: ['stackoverflow.com', 'www.stackoverflow.com'],
      path: '/q/{id:int}/**',
      otherQuery: 'drop',
      to: 'https://stackoverflow.com/questions/{id}',
    },
    {
      id: 'stackoverflow-question-slug',
      description: 'Stack Overflow question pages with any slug (or an answer id after it) are the question page.',
      hosts: ['stackoverflow.com', 'www.stackoverflow.com'],
      path: '/questions/{id:int}/**',
      otherQuery: 'drop',
      to: 'https://stackoverflow.com/questions/{id}',
    },
  ],
};
