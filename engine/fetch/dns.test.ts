import { describe, expect, it, vi } from 'vitest';
import { CodedError } from '../../shared/types/result';
import { HostResolver, type LookupFunction } from './dns';

async function rejectionOf(promise: Promise<unknown>): Promise<CodedError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(CodedError);
    return error as CodedError;
  }
  throw new Error('expected the promise to reject');
}

describe('HostResolver', () => {
  const failingLookup: LookupFunction = async () => {
    throw new Error('lookup must not be called');
  };

  it('returns the override address and port without a lookup', async () => {
    const lookup = vi.fn(failingLookup);
    const resolver = new HostResolver({ overrides: [{ host: 'site.test', address: '127.0.0.1', port: 8080 }], lookup });
    await expect(resolver.resolve('site.test')).resolves.toEqual({ address: '127.0.0.1', family: 4, port: 8080 });
    expect(lookup).not.toHaveBeenCalled();
  });

  it('an override wins over what the system resolver would say', async () => {
    const lookup = vi.fn<LookupFunction>(async () => ({ address: '93.184.216.34', family: 4 }));
    const resolver = new HostResolver({ overrides: [{ host: 'example.com', address: '10.1.2.3' }], lookup });
    await expect(resolver.resolve('example.com')).resolves.toEqual({ address: '10.1.2.3', family: 4 });
    expect(lookup).not.toHaveBeenCalled();
  });

  it('matches overrides case-insensitively and reports IPv6 override addresses as family 6', async () => {
    const resolver = new HostResolver({ overrides: [{ host: 'Six.Test', address: '::1', port: 81 }], closed: true, lookup: failingLookup });
    await expect(resolver.resolve('SIX.test')).resolves.toEqual({ address: '::1', family: 6, port: 81 });
  });

  it('closed mode refuses an unmapped host with HOST_NOT_MAPPED and never calls lookup', async () => {
    const lookup = vi.fn<LookupFunction>(async () => ({ address: '127.0.0.1', family: 4 }));
    const resolver = new HostResolver({ overrides: [{ host: 'site.test', address: '127.0.0.1' }], closed: true, lookup });
    const error = await rejectionOf(resolver.resolve('other.test'));
    expect(error.code).toBe('HOST_NOT_MAPPED');
    expect(error.message).toContain('other.test');
    expect(lookup).not.toHaveBeenCalled();
  });

  it('closed mode also refuses IP literals that are not mapped', async () => {
    const lookup = vi.fn(failingLookup);
    const resolver = new HostResolver({ closed: true, lookup });
    expect((await rejectionOf(resolver.resolve('127.0.0.1'))).code).toBe('HOST_NOT_MAPPED');
    expect(lookup).not.toHaveBeenCalled();
  });

  it('open mode passes IPv4 and bracketed IPv6 literals through without a lookup', async () => {
    const lookup = vi.fn(failingLookup);
    const resolver = new HostResolver({ lookup });
    await expect(resolver.resolve('192.0.2.7')).resolves.toEqual({ address: '192.0.2.7', family: 4 });
    await expect(resolver.resolve('[::1]')).resolves.toEqual({ address: '::1', family: 6 });
    expect(lookup).not.toHaveBeenCalled();
  });

  it('open mode caches a lookup for cacheTtlMs, then looks up again', async () => {
    let clock = 1_000;
    const answers = ['10.0.0.1', '10.0.0.2'];
    const lookup = vi.fn<LookupFunction>(async () => ({ address: answers.shift() ?? '10.0.0.99', family: 4 }));
    const resolver = new HostResolver({ lookup, cacheTtlMs: 5_000, now: () => clock });

    await expect(resolver.resolve('cached.test')).resolves.toEqual({ address: '10.0.0.1', family: 4 });
    clock = 5_999; // 4 999 ms later: still cached
    await expect(resolver.resolve('cached.test')).resolves.toEqual({ address: '10.0.0.1', family: 4 });
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(lookup).toHaveBeenCalledWith('cached.test');

    clock = 6_000; // exactly the TTL: expired
    await expect(resolver.resolve('cached.test')).resolves.toEqual({ address: '10.0.0.2', family: 4 });
    expect(lookup).toHaveBeenCalledTimes(2);
  });

  it('caches per host', async () => {
    const lookup = vi.fn<LookupFunction>(async (host) => ({ address: host === 'a.test' ? '10.0.0.1' : '10.0.0.2', family: 4 }));
    const resolver = new HostResolver({ lookup, now: () => 0 });
    await expect(resolver.resolve('a.test')).resolves.toMatchObject({ address: '10.0.0.1' });
    await expect(resolver.resolve('b.test')).resolves.toMatchObject({ address: '10.0.0.2' });
    await resolver.resolve('a.test');
    expect(lookup).toHaveBeenCalledTimes(2);
  });

  it('reports an IPv6 lookup answer as family 6', async () => {
    const resolver = new HostResolver({ lookup: async () => ({ address: '2001:db8::1', family: 6 }) });
    await expect(resolver.resolve('v6.test')).resolves.toEqual({ address: '2001:db8::1', family: 6 });
  });

  it('turns a lookup failure into DNS_FAILED carrying the reason, and does not cache it', async () => {
    let fail = true;
    const lookup = vi.fn<LookupFunction>(async () => {
      if (fail) throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), { code: 'ENOTFOUND' });
      return { address: '10.9.9.9', family: 4 };
    });
    const resolver = new HostResolver({ lookup, now: () => 0 });
    const error = await rejectionOf(resolver.resolve('nowhere.test'));
    expect(error.code).toBe('DNS_FAILED');
    expect(error.message).toContain('nowhere.test');
    expect(error.message).toContain('ENOTFOUND');
    fail = false;
    await expect(resolver.resolve('nowhere.test')).resolves.toEqual({ address: '10.9.9.9', family: 4 });
    expect(lookup).toHaveBeenCalledTimes(2);
  });

  it('a wildcard override maps every host under its suffix; closed mode still refuses the bare suffix and the rest, unlooked-up', async () => {
    const lookup = vi.fn<LookupFunction>(async () => ({ address: '10.0.0.1', family: 4 }));
    const resolver = new HostResolver({ overrides: [{ host: '*.site.test', address: '127.0.0.1', port: 8080 }, { host: 'api.site.test', address: '::1', port: 81 }], closed: true, lookup });
    await expect(resolver.resolve('a.site.test')).resolves.toEqual({ address: '127.0.0.1', family: 4, port: 8080 });
    await expect(resolver.resolve('b.c.site.test')).resolves.toEqual({ address: '127.0.0.1', family: 4, port: 8080 });
    await expect(resolver.resolve('api.site.test')).resolves.toEqual({ address: '::1', family: 6, port: 81 });
    expect((await rejectionOf(resolver.resolve('site.test'))).code).toBe('HOST_NOT_MAPPED');
    expect((await rejectionOf(resolver.resolve('other.test'))).code).toBe('HOST_NOT_MAPPED');
    expect(lookup).not.toHaveBeenCalled();
  });
});
