import { describe, expect, it } from 'vitest';
import { formatCount, formatCountdown } from './format';

describe('formatCount', () => {
  it('puts the noun in the number the count needs', () => {
    expect(formatCount(1, 'URL')).toBe('1 URL');
    expect(formatCount(2, 'URL')).toBe('2 URLs');
    expect(formatCount(0, 'host')).toBe('0 hosts');
    expect(formatCount(1, 'entry', 'entries')).toBe('1 entry');
    expect(formatCount(9512, 'entry', 'entries')).toBe('9512 entries');
  });
});

describe('formatCountdown', () => {
  const now = 1_000_000;
  it('counts down in tenths of a second, rounded up so a waiting host never reads 0.0 s', () => {
    expect(formatCountdown(now + 1200, now)).toBe('in 1.2 s');
    expect(formatCountdown(now + 1, now)).toBe('in 0.1 s');
    expect(formatCountdown(now + 59_950, now)).toBe('in 1 min');
  });
  it('reads minutes and hours for long waits', () => {
    expect(formatCountdown(now + 125_000, now)).toBe('in 2 min 5 s');
    expect(formatCountdown(now + 3_600_000 + 30 * 60_000, now)).toBe('in 1 h 30 min');
  });
  it('never shows a past time: due or overdue is "now", unknown is empty', () => {
    expect(formatCountdown(now, now)).toBe('now');
    expect(formatCountdown(now - 5000, now)).toBe('now');
    expect(formatCountdown(null, now)).toBe('');
  });
});
