import { describe, expect, it } from 'vitest';
import { textSketch } from '../dedupe/shingles';
import type { FrontierCandidate } from '../store/ports';
import { TrapGuard } from './trap-guard';

function candidate(url: string): FrontierCandidate {
  const host = new URL(url).hostname;
  return { url, normalized: url, normalizedKey: url, host, registrableDomain: host, depth: 1, discoveredFrom: 1 };
}

const emptyMonth = (month: number) => textSketch(`Town hall calendar Home About News Contact Month ${month} Mo Tu We Th Fr Sa Su ${Array.from({ length: 30 }, (_, d) => d + 1).join(' ')} No events this month Previous Next Footer volunteers office weekdays nine to five`)!.minhash;

describe('TrapGuard', () => {
  it('holds a repeated-segment loop at once, reports the trap once, and leaves other URLs alone', () => {
    const guard = new TrapGuard();
    const links = [candidate('http://loop.test/docs/intro/intro/intro/'), candidate('http://loop.test/docs/intro/setup.html'), candidate('http://loop.test/docs/intro/intro/intro/intro/')];
    guard.screen('http://loop.test/docs/intro/intro/', links);
    expect(links.map((link) => link.heldBy !== undefined)).toEqual([true, false, true]);
    const found = guard.takeFound();
    expect(found.map((trap) => trap.detector)).toEqual(['repeated-segments']);
    expect(guard.takeFound()).toEqual([]);
  });

  it('holds the links of the page that completes a near-identical template, in the same batch', () => {
    const guard = new TrapGuard();
    // Each month is linked from the month before (the template generates itself), then fetched.
    for (let month = 1; month <= 5; month += 1) {
      guard.screen(`http://cal.test/calendar/2031/${month - 1}`, [candidate(`http://cal.test/calendar/2031/${month}`)]);
      guard.observePage(`http://cal.test/calendar/2031/${month}`, emptyMonth(month));
    }
    expect(guard.takeFound()).toEqual([]);
    guard.screen('http://cal.test/calendar/2031/5', [candidate('http://cal.test/calendar/2031/6')]);
    guard.observePage('http://cal.test/calendar/2031/6', emptyMonth(6));
    const links = [candidate('http://cal.test/calendar/2031/7'), candidate('http://cal.test/about.html')];
    guard.screen('http://cal.test/calendar/2031/6', links);
    expect(links.map((link) => link.heldBy)).toEqual([expect.stringContaining('calendar'), undefined]);
    expect(guard.takeFound()).toEqual([expect.objectContaining({ detector: 'near-identical', template: '/calendar/{n}/{n}' })]);
  });

  it('does not count near-identical pages linked only from pages of another template (a list\'s thin detail pages)', () => {
    const guard = new TrapGuard();
    for (let n = 1; n <= 12; n += 1) {
      guard.screen('http://shop.test/products/', [candidate(`http://shop.test/reviews/${n}.html`)]);
      guard.observePage(`http://shop.test/reviews/${n}.html`, emptyMonth(1));
    }
    expect(guard.takeFound()).toEqual([]);
  });

  it('with memos: a link whose memo says screened skips the detectors but is still held by a matching trap; screening marks the memo', () => {
    const guard = new TrapGuard();
    // The memo vouches the loop URL was screened: the repeated-segment detector does not see it again.
    const vouched = [candidate('http://loop.test/docs/intro/intro/intro/')];
    guard.screen('http://loop.test/docs/intro/intro/', vouched, [{ screened: true }]);
    expect(guard.takeFound()).toEqual([]);
    expect(vouched[0]!.heldBy).toBeUndefined();
    // Without that memo it is screened, found, held, and its memo marked.
    const memo = { screened: false };
    const fresh = [candidate('http://loop.test/docs/intro/intro/intro/intro/')];
    guard.screen('http://loop.test/docs/intro/intro/intro/', fresh, [memo]);
    expect(guard.takeFound().map((trap) => trap.detector)).toEqual(['repeated-segments']);
    expect(fresh[0]!.heldBy).toBeDefined();
    expect(memo.screened).toBe(true);
    // A later link with the marked memo is held by the trap without being screened again.
    const again = [candidate('http://loop.test/docs/intro/intro/intro/intro/')];
    guard.screen('http://loop.test/docs/', again, [memo]);
    expect(again[0]!.heldBy).toBe(fresh[0]!.heldBy);
    expect(guard.takeFound()).toEqual([]);
  });

  it('a released trap holds nothing and is never suspected again; an excluded one keeps holding; stored traps hold on resume', () => {
    const guard = new TrapGuard();
    const first = [candidate('http://loop.test/a/a/a/')];
    guard.screen('http://loop.test/a/a/', first);
    const [trap] = guard.takeFound();
    guard.setState(trap!.pattern, 'released');
    const later = [candidate('http://loop.test/a/a/a/a/')];
    guard.screen('http://loop.test/a/a/a/', later);
    expect(later[0]!.heldBy).toBeUndefined();
    expect(guard.takeFound()).toEqual([]);
    guard.setState(trap!.pattern, 'excluded');
    expect(guard.match('loop.test', 'http://loop.test/a/a/a/b')).not.toBeNull();

    const resumed = new TrapGuard([{ host: 'loop.test', pattern: trap!.pattern, state: 'suspected' }]);
    const again = [candidate('http://loop.test/a/a/a/')];
    resumed.screen(null, again);
    expect(again[0]!.heldBy).toBe(trap!.pattern);
    expect(resumed.takeFound()).toEqual([]);
  });
});
