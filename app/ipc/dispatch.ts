import { isIpcChannel, type IpcChannel } from '../../shared/ipc/channels';
import type { IpcHandlers } from '../../shared/ipc/contract';
import { requestSchemas } from '../../shared/ipc/schemas';
import { toErrorInfo, type Result } from '../../shared/types/result';
import { storageErrorInfo } from '../../engine';

/** Routes one untrusted request to its handler. Never throws; never crashes the process on bad input. */
export type Dispatcher = (channel: unknown, payload: unknown) => Promise<Result<unknown>>;

/**
 * Builds the dispatcher both transports use (Electron ipcMain and the browser-mode WebSocket):
 * unknown channel → UNKNOWN_CHANNEL; payload failing the channel's schema → INVALID_PAYLOAD with
 * the first problem's path; a handler's CodedError → its code; a refused write (full disk, I/O
 * error, SQLITE_BUSY) → DISK_FULL, DB_IO_ERROR, … (db/storage-errors.ts); anything else → INTERNAL.
 */
export function createDispatcher(handlers: IpcHandlers): Dispatcher {
  return async (channel, payload) => {
    if (!isIpcChannel(channel)) {
      return { ok: false, error: { code: 'UNKNOWN_CHANNEL', message: `Unknown IPC channel ${JSON.stringify(String(channel)).slice(0, 80)}` } };
    }
    const parsed = requestSchemas[channel].safeParse(payload ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
      return { ok: false, error: { code: 'INVALID_PAYLOAD', message: `Invalid payload for ${channel}${where}: ${issue?.message ?? 'rejected'}` } };
    }
    try {
      const handler = handlers[channel] as (request: unknown) => Promise<unknown>;
      return { ok: true, value: await handler(parsed.data) };
    } catch (error) {
      return { ok: false, error: storageErrorInfo(error) ?? toErrorInfo(error) };
    }
  };
}

/** The channel list, for transports that register one listener per channel. */
export type { IpcChannel };
