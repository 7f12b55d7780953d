import { failLine, processIo, type CommandIo } from './io';

type Command = (argv: string[], io: CommandIo) => Promise<number>;

// Each command is loaded when it runs: `crawl` does not pay for the browser server's WebSocket
// and schema packages, nor `serve` for the test web.
const COMMANDS: Record<string, { run: Command; summary: string }> = {
  crawl: { run: async (argv, io) => (await import('./commands/crawl')).crawlCommand(argv, io), summary: 'crawl from seed URLs into a SQLite database' },
  resume: {
    run: async (argv, io) => (await import('./commands/resume')).resumeCommand(argv, io),
    summary: 'continue an interrupted crawl, or roll back to a checkpoint and continue',
  },
  checkpoints: {
    run: async (argv, io) => (await import('./commands/checkpoints')).checkpointsCommand(argv, io),
    summary: 'list or create named checkpoints of a crawl database',
  },
  export: {
    run: async (argv, io) => (await import('./commands/export')).exportCommand(argv, io),
    summary: 'write pages, frontier, URL groups, content groups or errors as JSONL or CSV',
  },
  normalize: {
    run: async (argv, io) => (await import('./commands/normalize')).normalizeCommand(argv, io),
    summary: 'normalize URLs from stdin (one a line) to JSON lines with the normalized key',
  },
  domain: {
    run: async (argv, io) => (await import('./commands/domain')).domainCommand(argv, io),
    summary: 'registrable domain of hosts or URLs from stdin, with the step-by-step trace',
  },
  serve: { run: async (argv, io) => (await import('./commands/serve')).serveCommand(argv, io), summary: 'run the workbench in browser mode (prints the URL to open)' },
  testweb: { run: async (argv, io) => (await import('./commands/testweb')).testwebCommand(argv, io), summary: 'start the local test web and print its resolver map' },
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
