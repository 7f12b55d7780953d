import { checkpointsCommand } from './commands/checkpoints';
import { crawlCommand } from './commands/crawl';
import { domainCommand } from './commands/domain';
import { exportCommand } from './commands/export';
import { normalizeCommand } from './commands/normalize';
import { resumeCommand } from './commands/resume';
import { serveCommand } from './commands/serve';
import { testwebCommand } from './commands/testweb';
import { failLine, processIo, type CommandIo } from './io';

type Command = (argv: string[], io: CommandIo) => Promise<number>;

const COMMANDS: Record<string, { run: Command; summary: string }> = {
  crawl: { run: crawlCommand, summary: 'crawl from seed URLs into a SQLite database' },
  resume: { run: resumeCommand, summary: 'continue an interrupted crawl, or roll back to a checkpoint and continue' },
  checkpoints: { run: checkpointsCommand, summary: 'list or create named checkpoints of a crawl database' },
  export: { run: exportCommand, summary: 'write pages, frontier, URL groups, content groups or errors as JSONL or CSV' },
  normalize: { run: normalizeCommand, summary: 'normalize URLs from stdin (one a line) to JSON lines with the normalized key' },
  domain: { run: domainCommand, summary: 'registrable domain of hosts or URLs from stdin, with the step-by-step trace' },
  serve: { run: serveCommand, summary: 'run the workbench in browser mode (prints the URL to open)' },
  testweb: { run: testwebCommand, summary: 'start the local test web and print its resolver map' },
};

const HELP = `Crawlbench: a crawl workbench.

Usage: crawlbench <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(12)}${command.summary}`)
  .join('\n')}
`;

/**
 * Runs one CLI command. Errors print one line (`crawlbench: …`) with no stack trace.
 * @returns the process exit code (0 ok, 2 bad usage or input, 1 unexpected failure)
 */
export async function main(argv: string[], io: CommandIo = processIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    io.stdout.write(HELP);
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) return failLine(io, `unknown command "${name}"\n${HELP}`);
  try {
    return await command.run(rest, io);
  } catch (error) {
    io.stderr.write(`crawlbench: ${name} failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
