/**
 * Electron composition root. Everything headless lives in app/ and engine/ and runs
 * under plain Node too; this file only wires them to a window and ipcMain.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserWindow } from 'electron';
import { app, shell } from 'electron';
import { parseHostOverride, createParentFolder, ELECTRON_NATIVE_BINDING, limitHeapGrowth } from '../../engine';
import { registerElectronIpc } from './electron-ipc';
import { createAppServices, type AppServices } from '../../app/services/app-services';
import { appRoot } from '../../app/services/resources';
import { createMainWindow } from './window';

const outDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
// Heap headroom near the live set while crawls run here (engine/schedule/heap-growth.ts).
limitHeapGrowth();

/** `--resolve host=ip:port` (repeatable) and `--closed`, as the CLI takes them. */
function resolverArgs(argv: readonly string[]): { hostOverrides: ReturnType<typeof parseHostOverride>[]; closedResolver: boolean } {
  const hostOverrides = [];
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index]!;
    if (arg === '--resolve' && argv[index + 1]) hostOverrides.push(parseHostOverride(argv[(index += 1)]!));
    else if (arg.startsWith('--resolve=')) hostOverrides.push(parseHostOverride(arg.slice('--resolve='.length)));
  }
  return { hostOverrides, closedResolver: argv.includes('--closed') };
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  let window: BrowserWindow | null = null;
  let services: AppServices | null = null;
  app.on('second-instance', () => {
    if (window?.isMinimized()) window.restore();
    window?.focus();
  });
  void app.whenReady().then(() => {
    const binding = path.join(appRoot(), ELECTRON_NATIVE_BINDING);
    const dbPath = process.env['CRAWLBENCH_DB'] ?? path.join(app.getPath('userData'), 'crawlbench.db');
    createParentFolder(dbPath);
    services = createAppServices({
      dbPath,
      mode: 'electron',
      version: app.getVersion(),
      showItemInFolder: (file) => shell.showItemInFolder(file),
      ...resolverArgs(process.argv),
      openExternal: (url) => shell.openExternal(url),
      ...(fs.existsSync(binding) ? { nativeBinding: binding } : {}),
    });
    const settings = services.settings;
    // Sizes go through the services' current settings (a checkpoint rollback reopens the database).
    window = createMainWindow(outDir, {
      windowSize: () => settings.windowSize(),
      saveWindowSize: (size) => services?.settings.saveWindowSize(size),
    });
    registerElectronIpc(services, () => window?.webContents ?? null);
  });
  app.on('window-all-closed', () => {
    void (services?.close() ?? Promise.resolve()).finally(() => app.quit());
  });
}
