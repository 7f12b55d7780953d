import { parseArgs } from 'node:util';
import { startTestWeb } from '../../testweb/index';
import { failLine, failWith, intFlag, parseErrorLine, type CommandIo } from '../io';

export const TESTWEB_USAGE = `Usage: crawlbench testweb [--port N]
  Starts the local test web on 127.0.0.1 (nginx serving the Python docs as docs.python.test on
  port N, the fixture hosts on N+1; free ports without --port), prints its --resolve flags and
  runs until SIGINT or SIGTERM (then exits 0).`;

/**
 * `crawlbench testweb`: starts the local test web (nginx with the Python docs as docs.python.test,
 * the fixture server's hosts), prints its resolver map as `--resolve` flags, and runs until
 * SIGINT or SIGTERM.
 * @returns 0 after a signal; 2 for a bad flag or when a server cannot start (port taken, nginx missing)
 */
export async function testwebCommand(argv: string[], io: CommandIo): Promise<number> {
  let port: number | undefined;
  try {
    const { values } = parseArgs({ args: argv, options: { port: { type: 'string' } } });
    port = intFlag('port', values.port, 1024, 65_534);
  } catch (error) {
    return error instanceof TypeError ? failLine(io, parseErrorLine(error, argv, 'testweb')) : failWith(io, error);
  }
  let web;
  try {
    web = await startTestWeb(port === undefined ? {} : { port });
  } catch (error) {
    return failLine(io, (error as Error).message);
  }
  io.stdout.write(`Test web is up. Resolver map (use with --closed):\n  ${web.resolveFlags.join(' ')}\n`);
  io.stdout.write(`Example: npx crawlbench crawl http://docs.python.test/ --db /tmp/docs.db ${web.resolveFlags.join(' ')} --closed --json\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await web.stop();
  return 0;
}
