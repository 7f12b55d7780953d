import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_GENERIC_TLDS, DEFAULT_SITE_RULES, parseSiteRules } from '../../shared/url';
import { REPO_ROOT } from './conformance';

const tld = (name: string): string => path.join(REPO_ROOT, 'resources/tld', name);

describe('resources/tld', () => {
  it('site-rules.json is DEFAULT_SITE_RULES and valid', () => {
    const json: unknown = JSON.parse(fs.readFileSync(tld('site-rules.json'), 'utf8'));
    expect(json).toEqual(DEFAULT_SITE_RULES);
    expect(parseSiteRules(json).ok).toBe(true);
  });
  it('generic-tlds.json is DEFAULT_GENERIC_TLDS', () => {
    const json = JSON.parse(fs.readFileSync(tld('generic-tlds.json'), 'utf8')) as { generic: string[]; source: string };
    expect(json.generic).toEqual([...DEFAULT_GENERIC_TLDS]);
    expect(json.source).toContain('RFC 1591');
  });
  it('the PSL snapshot is the recorded upstream file: its origin, date and SHA-256', () => {
    const snapshot = fs.readFileSync(tld('public_suffix_list.dat'));
    const meta = JSON.parse(fs.readFileSync(tld('public_suffix_list.meta.json'), 'utf8')) as { origin: string; snapshotDate: string; sha256: string };
    expect(meta.origin).toContain('e8c9a2b2b2856b6449999dd0ec0d118f364ed0cd');
    expect(meta.snapshotDate).toBe('2026-08-19');
    expect(createHash('sha256').update(snapshot).digest('hex')).toBe(meta.sha256);
  });
});
