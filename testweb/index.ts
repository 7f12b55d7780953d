import type { HostOverride } from '../shared/types/crawl';
import { startFixtureServer, type FixtureServer } from './fixture-server';
import { startNginx, type NginxSite } from './nginx';

/** The Python docs mirror's host name in every test. */
export const DOCS_HOST = 'docs.python.test';

export interface TestWeb {
  nginx: NginxSite;
  fixtures: FixtureServer;
  /** Resolver overrides mapping every test host to 127.0.0.1 (use with closed mode). */
  overrides: HostOverride[];
  /** The same as `--resolve` flags. */
  resolveFlags: string[];
  stop(): Promise<void>;
}

/**
 * Starts nginx with the Python docs and the fixture server, both on 127.0.0.1: on free ports, or
 * nginx on `options.port` and the fixture server on the port after it.
 */
export async function startTestWeb(options: { port?: number } = {}): Promise<TestWeb> {
  const nginx = await startNginx(undefined, options.port === undefined ? {} : { port: options.port });
  let fixtures: FixtureServer;
  try {
    fixtures = await startFixtureServer(undefined, options.port === undefined ? {} : { port: options.port + 1 });
  } catch (error) {
    await nginx.stop();
    throw error;
  }
  const overrides: HostOverride[] = [
    { host: DOCS_HOST, address: '127.0.0.1', port: nginx.port },
    ...fixtures.hosts.map((host) => ({ host, address: '127.0.0.1', port: fixtures.port })),
  ];
  return {
    nginx,
    fixtures,
    overrides,
    resolveFlags: overrides.flatMap((o) => ['--resolve', `${o.host}=${o.address}:${o.port}`]),
    async stop() {
      await Promise.all([nginx.stop(), fixtures.stop()]);
    },
  };
}
