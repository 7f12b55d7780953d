import { describe, expect, it } from 'vitest';
import { ConnectionProtocols, MAX_ORIGINS, originKey, socketProtocols, tlsProtocolId } from './connection-protocols';

describe('connection protocols (WARC-Protocol ids)', () => {
  it('names TLS versions as the extension does, and nothing for names it does not know', () => {
    expect(['TLSv1.3', 'TLSv1.2', 'TLSv1.1', 'TLSv1', 'SSLv3'].map(tlsProtocolId)).toEqual(['tls/1.3', 'tls/1.2', 'tls/1.1', 'tls/1.0', 'ssl/3']);
    expect([null, undefined, '', 'unknown', 'TLSv1.3\r\nX: y'].map(tlsProtocolId)).toEqual([null, null, null, null, null]);
  });

  it('lists the application protocol, then TLS: h2 over TLS, HTTP/1.1 when ALPN chose it or nothing, cleartext without a TLS layer', () => {
    expect(socketProtocols({ alpnProtocol: 'h2', getProtocol: () => 'TLSv1.3' })).toEqual(['h2', 'tls/1.3']);
    expect(socketProtocols({ alpnProtocol: 'http/1.1', getProtocol: () => 'TLSv1.2' })).toEqual(['http/1.1', 'tls/1.2']);
    expect(socketProtocols({ alpnProtocol: false, getProtocol: () => 'TLSv1.3' })).toEqual(['http/1.1', 'tls/1.3']);
    expect(socketProtocols({})).toEqual(['http/1.1']);
  });

  it('keys an origin as undici connects and as a URL spells it alike (default ports, case, IPv6 brackets)', () => {
    expect(originKey('https:', 'A.Test', '')).toBe('https://a.test:443');
    expect(originKey('https:', 'a.test', '443')).toBe('https://a.test:443');
    expect(originKey('http:', '[::1]', '8080')).toBe(originKey('http:', '::1', 8080));
    const protocols = new ConnectionProtocols();
    protocols.record(originKey('https:', 'a.test', '443'), { alpnProtocol: 'h2', getProtocol: () => 'TLSv1.3' });
    expect(protocols.of('https://A.test/page?q=1')).toEqual(['h2', 'tls/1.3']);
    expect(protocols.of('https://a.test:8443/')).toEqual([]);
    expect(protocols.of('http://a.test/')).toEqual([]);
  });

  it('keeps the latest connection of an origin, and at most MAX_ORIGINS origins, forgetting the oldest', () => {
    const protocols = new ConnectionProtocols();
    protocols.record(originKey('https:', 'first.test', ''), { alpnProtocol: 'http/1.1', getProtocol: () => 'TLSv1.2' });
    protocols.record(originKey('https:', 'first.test', ''), { alpnProtocol: 'h2', getProtocol: () => 'TLSv1.3' });
    expect(protocols.of('https://first.test/')).toEqual(['h2', 'tls/1.3']);
    for (let i = 0; i < MAX_ORIGINS; i += 1) protocols.record(originKey('http:', `h${i}.test`, ''), {});
    expect(protocols.of('https://first.test/')).toEqual([]);
    expect(protocols.of('http://h0.test/')).toEqual(['http/1.1']);
    expect(protocols.of(`http://h${MAX_ORIGINS - 1}.test/`)).toEqual(['http/1.1']);
  });
});
