/**
 * The closed list of IPC request channels and push events (Insomnia's closed union).
 * Kept free of schema code so the sandboxed preload can import it cheaply.
 * A snapshot test records this list: a change to the IPC surface shows up in review.
 */
export const IPC_CHANNELS = [
  'app.getInfo',
  'crawl.start',
  'crawl.stop',
  'crawl.list',
  'crawl.getProgress',
  'frontier.queryUrls',
  'crawl.pause',
  'crawl.resume',
  'crawl.open',
  'crawl.applySettings',
  'crawl.getRecovery',
  'crawl.discardRecovery',
  'frontier.queryHosts',
  'duplicates.queryUrlGroups',
  'duplicates.getUrlGroup',
  'duplicates.queryContentGroups',
  'duplicates.getContentGroup',
  'duplicates.queryVersionTemplates',
  'duplicates.getVersionTemplate',
  'settings.get',
  'settings.update',
  'settings.testDomain',
  'settings.getPublicSuffixList',
  'settings.previewNormalization',
  'checkpoints.list',
  'checkpoints.create',
  'checkpoints.resume',
  'export.showInFolder',
  'export.start',
  'overview.get',
  'siteTree.children',
  'urls.ancestry',
  'urls.inspect',
  'urls.source',
  'urls.queryLinks',
  'urls.refetch',
  'urls.exclude',
  'urls.openExternal',
  'pages.query',
  'dust.mine',
  'dust.accept',
  'dust.undo',
  'dust.groupRules',
  'frontier.queryTraps',
  'frontier.setTrapState',
  'compare.run',
  'compare.changes',
  'extract.rerun',
] as const;

/** A request channel name. */
export type IpcChannel = (typeof IPC_CHANNELS)[number];

/** Push events from main to the renderer, named onDid<Verb><Subject> as in VS Code. */
export const IPC_EVENTS = ['crawl.onDidProgress', 'crawl.onDidFinish', 'crawl.onDidFail', 'export.onDidProgress', 'extract.onDidProgress'] as const;

/** A push event name. */
export type IpcEvent = (typeof IPC_EVENTS)[number];

/** True when `value` names a request channel of the contract. */
export function isIpcChannel(value: unknown): value is IpcChannel {
  return typeof value === 'string' && (IPC_CHANNELS as readonly string[]).includes(value);
}

/** True when `value` names a push event of the contract. */
export function isIpcEvent(value: unknown): value is IpcEvent {
  return typeof value === 'string' && (IPC_EVENTS as readonly string[]).includes(value);
}
