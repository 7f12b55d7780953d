/**
 * `crawl --warc FILE` and `resume --warc FILE`: the run's live WARC (issue 14 part 6). Opened
 * before the run (an existing file is appended to, after its partial tail is cut: a resumed crawl
 * goes on in the same archive), closed after it whatever its end: the last records flushed, then
 * the CDXJ index written beside it (FILE.cdxj).
 */
import path from 'node:path';
import { WarcFileWriter, WarcSink } from '../engine';
import { CodedError } from '../shared/types/result';
import type { CommandIo } from './io';

/** An open live WARC: the file, and the sink the run feeds. */
export interface LiveWarc {
  file: WarcFileWriter;
  sink: WarcSink;
}

/**
 * Opens the WARC file `file` for a run. Its warcinfo record names Crawlbench and the crawl's
 * robots.txt policy (WARC/1.1 §6.2 suggests `software`, `robots`, `http-header-user-agent`).
 * @throws CodedError WARC_OPEN_FAILED: the folder is missing, the file is not a WARC, it cannot be read or written
 */
export async function openLiveWarc(file: string, fields: { userAgent: string; obeyRobots: boolean }): Promise<LiveWarc> {
  const target = path.resolve(file);
  try {
    const writer = await WarcFileWriter.open(target, { software: 'Crawlbench 0.1.0', robots: fields.obeyRobots ? 'obey' : 'ignore', 'http-header-user-agent': fields.userAgent });
    return { file: writer, sink: new WarcSink(writer) };
  } catch (error) {
    throw new CodedError('WARC_OPEN_FAILED', `Cannot write the WARC file ${target}: ${error instanceof Error ? error.message : String(error)} (give a .warc.gz or .warc path in an existing folder)`);
  }
}

/**
 * Closes a run's WARC (its last appends, fsync, the CDXJ index) and says on stderr what it holds.
 * @returns false when closing failed (a full disk): the error is reported, the records written so far stay
 */
export async function closeLiveWarc(warc: LiveWarc, io: CommandIo): Promise<boolean> {
  try {
    await warc.file.close();
  } catch (error) {
    io.stderr.write(`crawlbench: WARC_WRITE_FAILED: ${warc.file.path}: ${error instanceof Error ? error.message : String(error)}\n`);
    return false;
  }
  const { responses, revisits } = warc.sink.counts;
  const repaired = warc.file.repairedBytes > 0 ? `; a partial record of ${warc.file.repairedBytes} bytes left by an earlier run was cut off` : '';
  io.stderr.write(`warc: ${responses} responses and ${revisits} revisits (${warc.file.appended} records with their requests) appended to ${warc.file.path}, index ${warc.file.path}.cdxj${repaired}\n`);
  return true;
}
