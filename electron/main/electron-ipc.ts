import { ipcMain, type WebContents } from 'electron';
import { IPC_CHANNELS } from '../../shared/ipc/channels';
import type { AppServices } from '../../app/services/app-services';

/**
 * Registers one ipcMain handler per contract channel (never a catch-all). A request is answered
 * only when it comes from the app's own window and top frame (VS Code's validateSender);
 * anything else gets `{ ok: false, error: { code: 'FORBIDDEN_SENDER' } }`. Push events go to the window.
 * @returns the function that removes the handlers and the event subscription
 */
export function registerElectronIpc(services: AppServices, window: () => WebContents | null): () => void {
  for (const channel of IPC_CHANNELS) {
    ipcMain.handle(channel, async (event, payload: unknown) => {
      const contents = window();
      if (!contents || event.sender !== contents || event.senderFrame !== contents.mainFrame) {
        return { ok: false, error: { code: 'FORBIDDEN_SENDER', message: 'IPC from an unknown window or frame' } };
      }
      return services.dispatch(channel, payload);
    });
  }
  const unsubscribe = services.subscribe((event, payload) => {
    const contents = window();
    if (contents && !contents.isDestroyed()) contents.send(event, payload);
  });
  return () => {
    for (const channel of IPC_CHANNELS) ipcMain.removeHandler(channel);
    unsubscribe();
  };
}
