import path from 'node:path';
import { BrowserWindow, shell } from 'electron';

/** Where the window's size is read from and saved to (the settings table). */
export interface WindowSizeStore {
  windowSize(): { width: number; height: number } | null;
  saveWindowSize(size: { width: number; height: number }): void;
}

/** Saving the size waits this long after the last resize event. */
const SAVE_DELAY_MS = 500;

/**
 * The main window: context isolation, sandbox, no Node in the renderer, no webviews, every
 * permission request denied, navigation and new windows blocked (links open in the system
 * browser only when http(s)). Its size is restored from and saved to `sizes`.
 */
export function createMainWindow(outDir: string, sizes: WindowSizeStore): BrowserWindow {
  const saved = sizes.windowSize();
  const window = new BrowserWindow({
    width: saved?.width ?? 1280,
    height: saved?.height ?? 860,
    minWidth: 800,
    minHeight: 560,
    title: 'Crawlbench',
    show: false,
    webPreferences: {
      preload: path.join(outDir, 'preload', 'index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
    },
  });
  window.once('ready-to-show', () => window.show());
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  window.webContents.on('will-navigate', (event) => event.preventDefault());
  window.webContents.on('will-redirect', (event) => event.preventDefault());
  window.webContents.on('will-attach-webview', (event) => event.preventDefault());
  window.webContents.session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  window.webContents.session.setPermissionCheckHandler(() => false);

  let timer: NodeJS.Timeout | null = null;
  const save = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (window.isDestroyed() || window.isMaximized() || window.isMinimized() || window.isFullScreen()) return;
    const [width, height] = window.getSize();
    if (width && height) sizes.saveWindowSize({ width, height });
  };
  window.on('resize', () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(save, SAVE_DELAY_MS);
  });
  window.on('close', save);

  if (process.env['ELECTRON_RENDERER_URL']) void window.loadURL(process.env['ELECTRON_RENDERER_URL']);
  else void window.loadFile(path.join(outDir, 'renderer', 'index.html'));
  return window;
}
