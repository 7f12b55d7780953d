import { describe, expect, it, vi } from 'vitest';
import { inspectorHandlers } from './inspector-handlers';
import type { HandlerContext } from './handlers';

/** A context whose data store is never reached (openExternal needs none). */
function context(openExternal?: (url: string) => Promise<void>): HandlerContext {
  return {
    mode: openExternal ? 'electron' : 'browser',
    version: '0.0.0-test',
    hostOverrides: [],
    closedResolver: false,
    exportFolder: '/tmp',
    store: () => {
      throw new Error('not used');
    },
    recovery: {} as HandlerContext['recovery'],
    exports: {} as HandlerContext['exports'],
    rollBack: async () => undefined,
    ...(openExternal ? { openExternal } : {}),
  };
}

describe('urls.openExternal', () => {
  it('hands the URL to the system browser in the desktop app', async () => {
    const open = vi.fn(async () => undefined);
    expect(await inspectorHandlers(context(open))['urls.openExternal']({ url: 'https://a.test/x' })).toEqual({ opened: true });
    expect(open).toHaveBeenCalledWith('https://a.test/x');
  });

  it('is refused in browser mode, which opens a new tab itself', async () => {
    await expect(inspectorHandlers(context())['urls.openExternal']({ url: 'https://a.test/x' })).rejects.toMatchObject({ code: 'NOT_SUPPORTED' });
  });
});
