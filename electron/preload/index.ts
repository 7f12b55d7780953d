/**
 * Sandboxed preload: exposes `window.crawlbench` with one function per contract channel and `on`
 * for push events, nothing else (no generic invoke, no ipcRenderer).
 */
import { contextBridge, ipcRenderer } from 'electron';
import { IPC_CHANNELS, isIpcEvent, type IpcEvent } from '../../shared/ipc/channels';

const api: Record<string, unknown> = {};
for (const channel of IPC_CHANNELS) {
  api[channel] = (payload: unknown) => ipcRenderer.invoke(channel, payload);
}
api['on'] = (event: IpcEvent, listener: (payload: unknown) => void) => {
  if (!isIpcEvent(event)) throw new Error(`Unknown event ${String(event)}`);
  const wrapped = (_event: unknown, payload: unknown) => listener(payload);
  ipcRenderer.on(event, wrapped);
  return () => ipcRenderer.removeListener(event, wrapped);
};

contextBridge.exposeInMainWorld('crawlbench', api);
