import path from 'node:path';
import { BrowserWindow, shell } from 'electron';

/**
 * The main window: context isolation, sandbox, no Node in the renderer, navigation and new
 * windows blocked (links open in the system browser only when http(s)).
 */
export function createMainWindow(outDir: string): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 860,
    title: 'Crawlbench',
    show: false,
    webPreferences: {
      preload: path.join(outDir, 'preload', 'index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  window.once('ready-to-show', () => window.show());
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  window.webContents.on('will-navigate', (event) => event.preventDefault());
  if (process.env['ELECTRON_RENDERER_URL']) void window.loadURL(process.env['ELECTRON_RENDERER_URL']);
  else void window.loadFile(path.join(outDir, 'renderer', 'index.html'));
  return window;
}
