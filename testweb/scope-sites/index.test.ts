import { describe, expect, it } from 'vitest';
import { dynamicRoute, FIXTURE_SITES } from '../fixture-sites';
import { scopeRoute, SCOPE_SITES } from './index';

describe('the scope fixture hosts served together', () => {
  it('name no host of the fixture web (one would hide the other in crawlbench testweb)', () => {
    const shared = Object.keys(SCOPE_SITES).filter((host) => Object.hasOwn(FIXTURE_SITES, host));
    expect(shared).toEqual([]);
    expect(Object.keys(SCOPE_SITES).length).toBeGreaterThanOrEqual(10);
  });

  it('answer their variable routes, and leave the fixture web\'s own to it', () => {
    expect(scopeRoute('calendar.test', '/calendar/2031/7')).toBeTypeOf('function');
    expect(scopeRoute('news.test', '/story_3.html')).toBeTypeOf('function');
    expect(scopeRoute('trap.test', '/calendar/2031/7')).toBeUndefined();
    expect(dynamicRoute('trap.test', '/calendar/2031/7')).toBeTypeOf('function');
  });
});
