/**
 * The protocols an origin's connections negotiated, named as the WARC-Protocol field names them
 * (IIPC WARC extension "WARC-Protocol", status adopted: iipc/warc-specifications,
 * specifications/warc-extensions/warc-protocol.md; written by StormCrawler, Nutch and warcio):
 * the application protocol first ('h2', or 'http/1.1'), then the security layer when there is one
 * ('tls/1.3', 'tls/1.2', …), higher level before lower as the extension orders repeated fields.
 *
 * undici does not say which connection answered a request, so a connection's protocols are kept
 * by its origin when it opens and read by a response's URL: an origin answers ALPN the same way on
 * each connection. Bounded by origins ({@link MAX_ORIGINS}): the oldest is forgotten first.
 */

/** Origins remembered at most (a few hundred bytes each). */
export const MAX_ORIGINS = 10_000;

/** What a connected socket tells of its protocols (node:tls TLSSocket; a net.Socket has neither). */
export interface NegotiatedSocket {
  /** ALPN's choice: 'h2', 'http/1.1', or false / undefined when none was negotiated. */
  alpnProtocol?: string | false | null;
  /** TLS version as OpenSSL names it ('TLSv1.3'); absent on a cleartext socket. */
  getProtocol?: () => string | null;
}

/** Default ports by scheme (RFC 9110 §4.2). */
const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/**
 * The key of an origin: scheme, host name without IPv6 brackets, and port with the scheme's
 * default filled in (undici's connect options and a URL spell the same origin differently).
 * @example originKey('https:', 'A.test', '') → 'https://a.test:443'
 */
export function originKey(protocol: string, hostname: string, port: string | number | null | undefined): string {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const portText = port === undefined || port === null || port === '' ? (DEFAULT_PORTS[protocol] ?? '') : String(port);
  return `${protocol}//${host}:${portText}`;
}

/**
 * A TLS version as the WARC-Protocol field writes it: 'TLSv1.3' → 'tls/1.3', 'TLSv1' → 'tls/1.0',
 * 'SSLv3' → 'ssl/3'; null for a name it does not know.
 */
export function tlsProtocolId(version: string | null | undefined): string | null {
  const tls = /^TLSv(\d)(?:\.(\d))?$/.exec(version ?? '');
  if (tls) return `tls/${tls[1]}.${tls[2] ?? '0'}`;
  const ssl = /^SSLv(\d)$/.exec(version ?? '');
  return ssl ? `ssl/${ssl[1]}` : null;
}

/**
 * A socket's protocols, higher level first: ALPN's 'h2' or 'http/1.1' ('http/1.1' when nothing
 * was negotiated: undici speaks HTTP/1.1 then), then its TLS version when it has one.
 */
export function socketProtocols(socket: NegotiatedSocket): string[] {
  const application = socket.alpnProtocol === 'h2' ? 'h2' : 'http/1.1';
  const tls = typeof socket.getProtocol === 'function' ? tlsProtocolId(socket.getProtocol()) : null;
  return tls === null ? [application] : [application, tls];
}

/** The protocols of each origin's latest connection (see the module comment). */
export class ConnectionProtocols {
  private readonly byOrigin = new Map<string, readonly string[]>();

  /** Records the protocols of a connection just opened to `origin` ({@link originKey}). */
  record(origin: string, socket: NegotiatedSocket): void {
    this.byOrigin.delete(origin);
    this.byOrigin.set(origin, socketProtocols(socket));
    if (this.byOrigin.size > MAX_ORIGINS) this.byOrigin.delete(this.byOrigin.keys().next().value as string);
  }

  /** The protocols `url` was fetched over; empty when its origin's connection is unknown (a proxy's). */
  of(url: string): readonly string[] {
    const parsed = new URL(url);
    return this.byOrigin.get(originKey(parsed.protocol, parsed.hostname, parsed.port)) ?? [];
  }
}
