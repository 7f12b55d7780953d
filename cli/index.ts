import { EXIT_CODES_HELP, failLine, processIo, type CommandIo } from './io';

type Command = (argv: string[], io: CommandIo) => Promise<number>;

// Each command is loaded when it runs: `crawl` does not pay for the browser server's WebSocket
// and schema packages, nor `serve` for the test web.
// `usage` loads the command's module too, for `crawlbench <command> --help`.
const COMMANDS: Record<string, { run: Command; usage: () => Promise<string>; summary: string }> = {
  crawl: {
    run: async (argv, io) => (await import('./commands/crawl')).crawlCommand(argv, io),
    usage: async () => (await import('./commands/crawl')).CRAWL_USAGE,
    summary: 'crawl from seed URLs into a SQLite database, or a PostgreSQL store several processes share',
  },
  resume: {
    run: async (argv, io) => (await import('./commands/resume')).resumeCommand(argv, io),
    usage: async () => (await import('./commands/resume')).RESUME_USAGE,
    summary: 'continue an interrupted crawl, or roll back to a checkpoint and continue',
  },
  join: {
    run: async (argv, io) => (await import('./commands/join')).joinCommand(argv, io),
    usage: async () => (await import('./commands/join')).JOIN_USAGE,
    summary: 'add this process to a crawl kept in PostgreSQL (crawl --store postgres://…)',
  },
  checkpoints: {
    run: async (argv, io) => (await import('./commands/checkpoints')).checkpointsCommand(argv, io),
    usage: async () => (await import('./commands/checkpoints')).CHECKPOINTS_USAGE,
    summary: 'list or create named checkpoints of a crawl database',
  },
  export: {
    run: async (argv, io) => (await import('./commands/export')).exportCommand(argv, io),
    usage: async () => (await import('./commands/export')).EXPORT_USAGE,
    summary: 'write pages, frontier, URL groups, content groups or errors as JSONL or CSV',
  },
  diff: {
    run: async (argv, io) => (await import('./commands/diff')).diffCommand(argv, io),
    usage: async () => (await import('./commands/diff')).DIFF_USAGE,
    summary: 'compare two crawls: URLs added, removed, status, title, content, redirects, new errors',
  },
  extract: {
    run: async (argv, io) => (await import('./commands/extract')).extractCommand(argv, io),
    usage: async () => (await import('./commands/extract')).EXTRACT_USAGE,
    summary: 'run custom extractors (CSS, regex, schema.org) over a crawl\'s stored bodies, no fetch',
  },
  dust: {
    run: async (argv, io) => (await import('./commands/dust')).dustCommand(argv, io),
    usage: async () => (await import('./commands/dust')).DUST_USAGE,
    summary: 'mine DUST rules (different URLs, same content) from a crawl; accept one to re-key its frontier',
  },
  traps: {
    run: async (argv, io) => (await import('./commands/traps')).trapsCommand(argv, io),
    usage: async () => (await import('./commands/traps')).TRAPS_USAGE,
    summary: 'list the crawler traps a crawl suspected, release one or exclude it for good',
  },
  normalize: {
    run: async (argv, io) => (await import('./commands/normalize')).normalizeCommand(argv, io),
    usage: async () => (await import('./commands/normalize')).NORMALIZE_USAGE,
    summary: 'normalize URLs from stdin (one a line) to JSON lines with the normalized key',
  },
  domain: {
    run: async (argv, io) => (await import('./commands/domain')).domainCommand(argv, io),
    usage: async () => (await import('./commands/domain')).DOMAIN_USAGE,
    summary: 'registrable domain of hosts or URLs from stdin, with the step-by-step trace',
  },
  serve: {
    run: async (argv, io) => (await import('./commands/serve')).serveCommand(argv, io),
    usage: async () => (await import('./commands/serve')).SERVE_USAGE,
    summary: 'run the workbench in browser mode (prints the URL to open)',
  },
  testweb: {
    run: async (argv, io) => (await import('./commands/testweb')).testwebCommand(argv, io),
    usage: async () => (await import('./commands/testweb')).TESTWEB_USAGE,
    summary: 'start the local test web and print its resolver map',
  },
};

const HELP = `Crawlbench: a crawl workbench.

Usage: crawlbench <command> [options]
       crawlbench <command> --help    (or crawlbench help <command>): that command's usage

Commands:
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(12)}${command.summary}`)
  .join('\n')}

${EXIT_CODES_HELP}
`;

/** True when the arguments ask for help (`--help` or `-h` before a `--`). */
function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

/**
 * Runs one CLI command. Errors print one line (`crawlbench: …`) with no stack trace.
 * `crawlbench <command> --help` (or `-h`) and `crawlbench help <command>` print the command's usage.
 * @returns the process exit code (see EXIT_CODES_HELP: 0 ok, 1 unexpected failure, 2 bad usage or
 *   input, 3 interrupted by storage, 130/143 stopped by SIGINT/SIGTERM)
 */
export async function main(argv: string[], io: CommandIo = processIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === 'help' && rest.length > 0) {
    const command = COMMANDS[rest[0]!];
    if (!command) return failLine(io, `unknown command "${rest[0]}" (crawlbench help lists them)`);
    io.stdout.write(`${await command.usage()}\n${EXIT_CODES_HELP}\n`);
    return 0;
  }
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    io.stdout.write(HELP);
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) return failLine(io, `unknown command "${name}" (crawlbench help lists them)`);
  if (wantsHelp(rest)) {
    io.stdout.write(`${await command.usage()}\n${EXIT_CODES_HELP}\n`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    io.stderr.write(`crawlbench: ${name} failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
