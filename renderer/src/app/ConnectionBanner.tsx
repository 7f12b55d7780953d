import { useStore } from '../store';

/**
 * The page's own address, split for the "reopen" hint: `http://127.0.0.1:PORT/t/TOKEN/` →
 * port and token (empty strings when the page is not served under `/t/TOKEN/`).
 */
export function pageAddress(href: string): { origin: string; port: string; token: string } {
  const url = new URL(href);
  const [, prefix, token] = url.pathname.split('/');
  return { origin: url.origin, port: url.port, token: prefix === 't' && token ? token : '' };
}

/**
 * Browser mode's connection banner (role=alert): shown while the server cannot be reached
 * (the client reconnects by itself), or when it came back with another token (only a new URL helps).
 */
export function ConnectionBanner() {
  const connection = useStore((s) => s.connection);
  if (connection === 'connected' || connection === 'connecting') return null;
  if (connection === 'lost') {
    return (
      <div role="alert" className="banner banner-warning" data-testid="connection-banner">
        Connection to Crawlbench lost — reconnecting… The counters below are from before the connection was lost.
      </div>
    );
  }
  const { origin, port, token } = pageAddress(window.location.href);
  return (
    <div role="alert" className="banner banner-error" data-testid="connection-banner">
      Crawlbench is running again, but with a new address: this page&apos;s key is no longer accepted. Open the URL that <code>crawlbench serve</code> printed (
      <code>{origin}/t/…/</code>), or restart it with <code>crawlbench serve --port {port} --token={token}</code> to keep using this page.
    </div>
  );
}
