import { describe, expect, it } from 'vitest';
import { HEADERS_TRUNCATED_KEY, recordResponseHeaders, RESPONSE_HEADERS_MAX_CHARS } from './response-headers';

describe('recordResponseHeaders', () => {
  it('keeps every header under its lower-case name, in order, repeated ones joined with ", "', () => {
    const json = recordResponseHeaders({ 'content-type': 'text/html', 'x-list': ['a', 'b'], 'X-Custom': 'yes', absent: undefined });
    expect(json).toBe('{"content-type":"text/html","x-list":"a, b","x-custom":"yes"}');
  });

  it('masks every Set-Cookie value, keeping the cookie names and attributes', () => {
    const json = recordResponseHeaders({ 'set-cookie': ['sid=s-42; Path=/; HttpOnly', 'theme=dark', 'odd'] });
    expect(JSON.parse(json)).toEqual({ 'set-cookie': 'sid=(masked); Path=/; HttpOnly, theme=(masked), =(masked)' });
    expect(recordResponseHeaders({ 'set-cookie': 'a=b=c; Secure' })).toBe('{"set-cookie":"a=(masked); Secure"}');
  });

  it('stays within 16 KiB whatever the server sends: a huge header is cut to fill it, and the cut is said', () => {
    const json = recordResponseHeaders({ 'content-type': 'text/html', 'x-huge': 'x'.repeat(10 * 1024 * 1024), 'x-after': 'ok', 'x-quoted': '"\\'.repeat(20_000) });
    expect(json.length).toBeLessThanOrEqual(RESPONSE_HEADERS_MAX_CHARS);
    const headers = JSON.parse(json) as Record<string, string>;
    expect(headers['content-type']).toBe('text/html');
    expect(headers['x-huge']!.endsWith('…')).toBe(true);
    expect(headers['x-huge']!.length).toBeGreaterThan(15_000);
    // The cut header fills the budget: the two after it are left out, and counted.
    expect(headers['x-after']).toBeUndefined();
    expect(headers[HEADERS_TRUNCATED_KEY]).toBe('3 of 4 headers cut or left out (16 KiB cap)');
  });

  it('cuts a header full of characters JSON escapes without passing the cap', () => {
    const json = recordResponseHeaders({ 'x-quoted': '"\\\n'.repeat(50_000) }, 1024);
    expect(json.length).toBeLessThanOrEqual(1024);
    expect(JSON.parse(json)[HEADERS_TRUNCATED_KEY]).toBe('1 of 1 headers cut or left out (1 KiB cap)');
  });

  it('leaves out a header when too little room is left to say anything, and keeps smaller ones after it', () => {
    const json = recordResponseHeaders({ a: 'x'.repeat(950), b: 'y'.repeat(500), c: 'z' }, 1100);
    const headers = JSON.parse(json) as Record<string, string>;
    expect(headers['a']).toHaveLength(950);
    expect(headers['b']).toBeUndefined();
    expect(headers['c']).toBe('z');
    expect(headers[HEADERS_TRUNCATED_KEY]).toBe('1 of 3 headers cut or left out (1 KiB cap)');
  });
});
