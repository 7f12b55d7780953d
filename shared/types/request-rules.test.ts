import { describe, expect, it } from 'vitest';
import { addRequestFlag, maskRequestRules, missingSecrets, type RequestRuleSecrets } from './request-rules';

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
