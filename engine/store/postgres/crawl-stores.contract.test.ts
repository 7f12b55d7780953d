// The crawl store contract (store/contract/) against the PostgreSQL stores: one throwaway cluster for the file, a database per test.
import { afterAll, beforeAll, describe } from 'vitest';
import { postgresUnavailableReason, startPostgres, type PostgresCluster } from '../../../testweb/postgres';
import { frontierStoreContract } from '../contract/frontier-store.contract';
import { robotsStoreContract } from '../contract/robots-store.contract';
import { trapStoreContract } from '../contract/trap-store.contract';
import { postgresHarness, TestDatabases } from './test-harness';

const unavailable = postgresUnavailableReason();
if (unavailable) console.log(`PostgreSQL store contract skipped: ${unavailable}`);

describe.skipIf(unavailable !== null)('PostgreSQL stores', () => {
  let cluster: PostgresCluster | null = null;
  let databases: TestDatabases | null = null;
  beforeAll(async () => {
    cluster = await startPostgres();
    databases = new TestDatabases(cluster.url);
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  });
  const harness = () => postgresHarness(() => databases!);
  frontierStoreContract('PostgreSQL', harness);
  robotsStoreContract('PostgreSQL', harness);
  trapStoreContract('PostgreSQL', harness);
});
