import { describe, expect, it } from 'vitest';
import { parseStoreArg } from './store-arg';

describe('parseStoreArg: which store --db / --store names', () => {
  it('a postgres:// or postgresql:// --store is a PostgreSQL store; any other value, and --db, a SQLite file', () => {
    expect(parseStoreArg({ store: 'postgres://crawler@db.local:5433/crawls' })).toEqual({ kind: 'postgres', url: 'postgres://crawler@db.local:5433/crawls' });
    expect(parseStoreArg({ store: 'postgresql://crawler:secret@127.0.0.1/crawls' })).toEqual({ kind: 'postgres', url: 'postgresql://crawler:secret@127.0.0.1/crawls' });
    expect(parseStoreArg({ store: 'crawl.db' })).toEqual({ kind: 'sqlite', file: 'crawl.db' });
    expect(parseStoreArg({ db: '/data/crawl.db' })).toEqual({ kind: 'sqlite', file: '/data/crawl.db' });
    expect(parseStoreArg({ db: 'same.db', store: 'same.db' })).toEqual({ kind: 'sqlite', file: 'same.db' });
    expect(parseStoreArg({})).toBeNull();
  });

  it.each([
    [{ store: 'postgres://user@host:notaport/db' }, 'not a valid URL'],
    [{ store: 'postgres://user@host:5432/' }, 'names no database'],
    [{ store: 'postgres://user@host:5432' }, 'names no database'],
    [{ store: 'postgres:///db' }, 'names no host'],
    [{ store: 'postgres://u:hunter2@host/a/b' }, 'names no database (or a path)'],
    [{ db: 'postgres://u@host/db' }, '--db takes a SQLite file'],
    [{ db: 'a.db', store: 'b.db' }, 'not both'],
    [{ store: '' }, 'is empty'],
  ])('%j is INVALID_STORE_URL, saying what to write, never showing a password', (args, words) => {
    let thrown: unknown;
    try {
      parseStoreArg(args);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'INVALID_STORE_URL' });
    expect((thrown as Error).message).toContain(words);
    expect((thrown as Error).message).not.toContain('hunter2');
  });
});
