// The crawl store contract (store/contract/) against the PostgreSQL stores: one throwaway cluster for the file, a database per test.
import { describe } from 'vitest';
import { postgresUnavailableReason } from '../../../testweb/postgres';
import { frontierStoreContract } from '../contract/frontier-store.contract';
import { robotsStoreContract } from '../contract/robots-store.contract';
import { trapStoreContract } from '../contract/trap-store.contract';
import { postgresHarness, useTestDatabases } from '../../../tests/support/postgres-stores';

const unavailable = postgresUnavailableReason();
if (unavailable) console.log(`PostgreSQL store contract skipped: ${unavailable}`);

describe.skipIf(unavailable !== null)('PostgreSQL stores', () => {
  const postgres = useTestDatabases();
  const harness = () => postgresHarness(() => postgres.databases);
  frontierStoreContract('PostgreSQL', harness);
  robotsStoreContract('PostgreSQL', harness);
  trapStoreContract('PostgreSQL', harness);
});
