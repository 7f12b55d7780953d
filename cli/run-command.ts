import { PassThrough } from 'node:stream';
import type { CommandIo } from './io';

/** What {@link runCommand} saw: the exit code, stdout parsed as JSON lines, and stderr. */
export interface CommandRun {
  code: number;
  lines: Record<string, unknown>[];
  stderr: string;
}

/**
 * Runs a CLI command in-process with `input` on stdin and in-memory stdout/stderr (the commands'
 * tests use it; the CLI itself passes the process streams).
 * @throws SyntaxError when a stdout line is not JSON
 */
export async function runCommand(command: (argv: string[], io: CommandIo) => Promise<number>, argv: string[], input: string): Promise<CommandRun> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  stdin.end(input);
  const code = await command(argv, { stdin, stdout, stderr });
  const lines = out
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { code, lines, stderr: err };
}
