import { PassThrough } from 'node:stream';
import type { CommandIo } from './io';

/** What {@link runCommand} saw: the exit code, stdout parsed as JSON lines, and stderr. */
export interface CommandRun {
  code: number;
  lines: Record<string, unknown>[];
  stderr: string;
}

/** What {@link runCommandText} saw: the exit code and stdout and stderr as text. */
export interface CommandText {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a CLI command in-process with `input` on stdin and in-memory stdout/stderr (the CLI's
 * tests use it; the CLI itself passes the process streams).
 */
export async function runCommandText(command: (argv: string[], io: CommandIo) => Promise<number>, argv: string[], input: string): Promise<CommandText> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  stdin.end(input);
  const code = await command(argv, { stdin, stdout, stderr });
  return { code, stdout: out, stderr: err };
}

/**
 * {@link runCommandText} with stdout parsed as JSON lines (the normalize and domain commands).
 * @throws SyntaxError when a stdout line is not JSON
 */
export async function runCommand(command: (argv: string[], io: CommandIo) => Promise<number>, argv: string[], input: string): Promise<CommandRun> {
  const { code, stdout, stderr } = await runCommandText(command, argv, input);
  const lines = stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { code, lines, stderr };
}
