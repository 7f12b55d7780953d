import { describe, expect, it } from 'vitest';
import { addRequestFlag, maskRequestRules, MAX_REQUEST_RULES, MAX_REQUEST_RULES_CHARS, MAX_REQUEST_VALUE_CHARS, missingSecrets, validateRequestRules, type RequestRuleInput, type RequestRuleSecrets } from './request-rules';

function rules(...flags: ['header' | 'auth' | 'cookie' | 'proxy', string][]): RequestRuleSecrets[] {
  let out: RequestRuleSecrets[] = [];
  for (const [flag, text] of flags) {
    const added = addRequestFlag(out, flag, text);
    if (!added.ok) throw new Error(added.error.message);
    out = added.value;
  }
  return out;
}

describe('request rules', () => {
  it('collects flags per host pattern, a later value replacing an earlier one', () => {
    const got = rules(['header', '*.Example.com=X-Key: one'], ['header', '*.example.com=x-key: two'], ['auth', 'a.test=user:pa:ss'], ['cookie', 'a.test=s=1; t=2'], ['proxy', 'a.test=http://u:p@127.0.0.1:3128']);
    expect(got).toEqual([
      { host: '*.example.com', headers: { 'x-key': 'two' }, auth: null, cookie: null, proxy: null },
      { host: 'a.test', headers: {}, auth: { username: 'user', password: 'pa:ss' }, cookie: 's=1; t=2', proxy: 'http://u:p@127.0.0.1:3128/' },
    ]);
  });

  it('masks every secret: header names, the user, whether a cookie is sent, the proxy without credentials', () => {
    const masked = maskRequestRules(rules(['auth', 'a.test=user:secret'], ['proxy', 'a.test=http://u:p@127.0.0.1:3128'], ['header', 'b.test=Authorization: Bearer t0k3n']));
    expect(masked).toEqual([
      { host: 'a.test', headers: [], username: 'user', cookie: false, proxy: 'http://127.0.0.1:3128/' },
      { host: 'b.test', headers: ['authorization'], username: null, cookie: false, proxy: null },
    ]);
    expect(JSON.stringify(masked)).not.toMatch(/secret|t0k3n|u:p/);
  });

  it('finds the masked rules whose secrets are missing', () => {
    const secrets = rules(['auth', 'a.test=user:secret']);
    const masked = maskRequestRules([...secrets, ...rules(['cookie', 'b.test=s=1'])]);
    expect(missingSecrets(masked, secrets).map((rule) => rule.host)).toEqual(['b.test']);
    expect(missingSecrets(maskRequestRules(secrets), secrets)).toEqual([]);
  });

  it.each([
    ['header', 'a.test=Host: evil.test', 'sets host itself'],
    ['header', 'a.test=X-A: one\r\nX-Injected: 1', 'control characters'],
    ['header', 'a.*.test=X-A: 1', 'host'],
    ['auth', 'a.test=nocolon', 'user:password'],
    ['cookie', 'a.test=', 'name=value'],
    ['proxy', 'a.test=socks5://127.0.0.1:1080', 'http: or https:'],
  ] as const)('refuses --%s %j', (flag, text, why) => {
    const result = addRequestFlag([], flag, text);
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST_RULE', message: expect.stringContaining(why) } });
  });
});

describe('validateRequestRules (the crawl form and IPC crawl.start)', () => {
  const good: RequestRuleInput = { host: 'Private.test', headers: { 'X-Api-Key': ' k-123 ' }, auth: { username: 'crawler', password: 's3cret pass' }, cookie: ' session=letmein ', proxy: 'http://u:p@127.0.0.1:3128' };

  it('accepts a good rule, normalized as the CLI normalizes its flags', () => {
    const read = validateRequestRules([good, { host: '*.example.test', headers: [['X-A', '1']], auth: null, cookie: null, proxy: null }]);
    expect(read).toEqual({
      ok: true,
      value: [
        { host: 'private.test', headers: { 'x-api-key': 'k-123' }, auth: { username: 'crawler', password: 's3cret pass' }, cookie: 'session=letmein', proxy: 'http://u:p@127.0.0.1:3128/' },
        { host: '*.example.test', headers: { 'x-a': '1' }, auth: null, cookie: null, proxy: null },
      ],
    });
    // The same rule through the CLI's flags.
    const flags = rules(['header', 'private.test=X-Api-Key: k-123'], ['auth', 'private.test=crawler:s3cret pass'], ['cookie', 'private.test=session=letmein'], ['proxy', 'private.test=http://u:p@127.0.0.1:3128']);
    expect(read.ok && read.value[0]).toEqual(flags[0]);
    expect(validateRequestRules([])).toEqual({ ok: true, value: [] });
  });

  it.each([
    ['a CR/LF header value', { ...good, headers: { 'x-a': 'one\r\nX-Injected: 1' } }, 'headers', 'Request rule 1 (private.test), header "x-a": no control characters'],
    ['a reserved header', { ...good, headers: { Host: 'evil.test' } }, 'headers', 'header "host": the crawler sets host itself'],
    ['a header name that is no token', { ...good, headers: { 'x a': '1' } }, 'headers', 'header "x a": a header name is'],
    ['an ftp: proxy', { ...good, proxy: 'ftp://127.0.0.1:21' }, 'proxy', 'Request rule 1 (private.test), proxy: the proxy must be an http: or https: URL'],
    ['a proxy that is no URL', { ...good, proxy: 'proxy:3128 x' }, 'proxy', 'proxy:'],
    ['the host pattern *.', { ...good, host: '*.' }, 'host', 'Request rule 1, host: expected an exact host or *.suffix: "*" may only be the whole first label'],
    ['a host with a space', { ...good, host: 'a b.test' }, 'host', 'Request rule 1, host: expected an exact host or *.suffix: a host of 1-253 characters'],
    ['a user name with a colon', { ...good, auth: { username: 'a:b', password: 'x' } }, 'auth', 'Basic auth: the user name may not contain ":"'],
    ['a password without a user', { ...good, auth: { username: '', password: 'x' } }, 'auth', 'Basic auth: a user name is needed'],
    ['a password with LF', { ...good, auth: { username: 'crawler', password: 'a\nb' } }, 'auth', 'no control characters'],
    ['a cookie without =', { ...good, cookie: 'letmein' }, 'cookie', 'cookie: expected name=value'],
    ['a cookie with CR', { ...good, cookie: 'a=1\r' }, 'cookie', 'no control characters'],
    ['a cookie over 8 KiB', { ...good, cookie: `a=${'x'.repeat(MAX_REQUEST_VALUE_CHARS)}` }, 'cookie', `at most ${MAX_REQUEST_VALUE_CHARS} characters`],
    ['a rule that sets nothing', { host: 'a.test', headers: {}, auth: null, cookie: null, proxy: null }, 'rule', 'Request rule 1 (a.test) sets nothing'],
  ] as const)('refuses %s with INVALID_REQUEST_RULE naming the field, and never a secret', (_what, rule, field, message) => {
    const read = validateRequestRules([rule as RequestRuleInput]);
    expect(read).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST_RULE', rule: 0, field, message: expect.stringContaining(message) } });
    if (!read.ok) for (const secret of ['s3cret pass', 'letmein', 'k-123', 'u:p', 'evil.test']) expect(read.error.message).not.toContain(secret);
  });

  it('refuses a host given twice, a header name given twice, and lists over their bounds', () => {
    expect(validateRequestRules([good, { ...good, host: 'PRIVATE.test' }])).toMatchObject({ ok: false, error: { rule: 1, field: 'host', message: expect.stringContaining('rule 1 is for private.test already') } });
    expect(validateRequestRules([{ ...good, headers: [['X-A', '1'], ['x-a', '2']] }])).toMatchObject({ ok: false, error: { rule: 0, field: 'headers', header: 1, message: expect.stringContaining('given twice') } });
    const many = Array.from({ length: MAX_REQUEST_RULES + 1 }, (_, i) => ({ ...good, host: `h${i}.test` }));
    expect(validateRequestRules(many)).toMatchObject({ ok: false, error: { rule: null, field: 'rules' } });
    const big = Array.from({ length: 20 }, (_, i) => ({ ...good, host: `h${i}.test`, headers: Object.fromEntries(Array.from({ length: 8 }, (_, j) => [`x-${j}`, 'v'.repeat(MAX_REQUEST_VALUE_CHARS)])) }));
    expect(validateRequestRules(big)).toMatchObject({ ok: false, error: { rule: null, field: 'rules', message: expect.stringContaining(String(MAX_REQUEST_RULES_CHARS)) } });
  });

  it('keeps a __proto__ header a header', () => {
    const read = validateRequestRules([{ host: 'a.test', headers: JSON.parse('{"__proto__":"1"}') as Record<string, string>, auth: null, cookie: null, proxy: null }]);
    expect(read.ok && Object.keys(read.value[0]!.headers)).toEqual(['__proto__']);
    expect(rules(['header', 'a.test=__proto__: 1'])[0]!.headers).toEqual(JSON.parse('{"__proto__":"1"}'));
  });

  it("never echoes a flag's secret in its error", () => {
    for (const [flag, text] of [['auth', 'a.test=a:b:\n'], ['cookie', 'a.test=letmein'], ['proxy', 'a.test=ftp://u:pw@p:21'], ['auth', 'crawler:s3cret']] as const) {
      const result = addRequestFlag([], flag, text);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.message).not.toMatch(/letmein|pw@|s3cret|a:b/);
    }
  });
});
