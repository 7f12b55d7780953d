import type { HostOverride } from '../shared/types/crawl';
import { startFixtureServer, type FixtureServer } from './fixture-server';
import { dynamicRoute, FIXTURE_SITES, type Handler } from './fixture-sites';
import { scopeRoute, SCOPE_SITES } from './scope-sites/index';
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

/** The fixture web and the scope hosts of issue 12 (scope-sites/), as one server's sites. */
const ALL_SITES: Record<string, Record<string, Handler>> = { ...FIXTURE_SITES, ...SCOPE_SITES };

/**
 * Starts nginx with the Python docs and the fixture server (the fixture web and the scope hosts),
 * both on 127.0.0.1: on free ports, or nginx on `options.port` and the fixture server on the port after it.
 */
export async function startTestWeb(options: { port?: number } = {}): Promise<TestWeb> {
  const nginx = await startNginx(undefined, options.port === undefined ? {} : { port: options.port });
  let fixtures: FixtureServer;
  try {
    fixtures = await startFixtureServer(ALL_SITES, { dynamic: (host, path) => dynamicRoute(host, path) ?? scopeRoute(host, path), ...(options.port === undefined ? {} : { port: options.port + 1 }) });
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
