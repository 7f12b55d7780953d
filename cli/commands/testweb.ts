import { startTestWeb } from '../../testweb';
import { failLine, type CommandIo } from '../io';

/**
 * `crawlbench testweb`: starts the local test web (nginx with the Python docs as docs.python.test,
 * the fixture server's hosts), prints its resolver map as `--resolve` flags, and runs until SIGINT.
 */
export async function testwebCommand(_argv: string[], io: CommandIo): Promise<number> {
  let web;
  try {
    web = await startTestWeb();
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
