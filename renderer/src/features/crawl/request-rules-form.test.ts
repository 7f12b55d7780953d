import { describe, expect, it } from 'vitest';
import { maskedRuleText, newRuleRow, readRuleRows, ruleInputsOf, type RequestRuleRow } from './request-rules-form';

const row = (patch: Partial<RequestRuleRow>): RequestRuleRow => ({ ...newRuleRow(1), ...patch });

describe('the crawl form\'s request rules', () => {
  it('reads typed rows into the rules IPC takes: blank fields send nothing, the password as typed', () => {
    const rows = [row({ host: ' Private.test ', username: 'crawler', password: ' s3cret pass', cookie: 'session=letmein', headers: [{ name: '', value: '' }, { name: 'X-Api-Key', value: 'k-123' }] })];
    expect(readRuleRows(rows)).toEqual({
      ok: true,
      rules: [{ host: 'private.test', headers: { 'x-api-key': 'k-123' }, auth: { username: 'crawler', password: ' s3cret pass' }, cookie: 'session=letmein', proxy: null }],
    });
    expect(ruleInputsOf([row({ host: 'a.test', proxy: ' http://p:3128 ' })])).toEqual([{ host: 'a.test', headers: [], auth: null, cookie: null, proxy: 'http://p:3128' }]);
    expect(readRuleRows([])).toEqual({ ok: true, rules: [] });
  });

  it('points a problem at its rule, field and typed header row (blank rows skipped), with the shared message', () => {
    const headers = [{ name: '', value: '' }, { name: 'X-A', value: '1' }, { name: 'Connection', value: 'close' }];
    expect(readRuleRows([row({ host: 'a.test', headers })])).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST_RULE', rule: 0, field: 'headers', header: 2, message: expect.stringContaining('the crawler sets connection itself') } });
    expect(readRuleRows([row({ host: 'a.test', cookie: 'a=1' }), row({ key: 2, host: '*.', cookie: 'a=1' })])).toMatchObject({ ok: false, error: { rule: 1, field: 'host', message: expect.stringContaining('Request rule 2, host') } });
    expect(readRuleRows([row({ host: 'a.test', password: 'pw' })])).toMatchObject({ ok: false, error: { rule: 0, field: 'auth', message: expect.stringContaining('a user name is needed') } });
    expect(readRuleRows([row({ host: 'a.test' })])).toMatchObject({ ok: false, error: { rule: 0, field: 'rule' } });
  });

  it('describes a masked rule without any secret', () => {
    expect(maskedRuleText({ host: 'private.test', headers: ['x-api-key'], username: 'crawler', cookie: true, proxy: 'http://127.0.0.1:3128/' })).toBe(
      'private.test: header x-api-key; Basic auth user crawler; cookie: set; proxy http://127.0.0.1:3128/',
    );
    expect(maskedRuleText({ host: '*.cdn.test', headers: ['a', 'b'], username: null, cookie: false, proxy: null })).toBe('*.cdn.test: headers a, b');
  });
});
