import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createNormalizer, PROFILES, type BuiltInProfileName } from '../../shared/url';
import { failLine, type CommandIo } from '../io';

/** The standard streams of a command (defined once in cli/io.ts, re-exported for the URL commands). */

export const NORMALIZE_USAGE = 'Usage: crawlbench normalize [--profile safe|standard|aggressive] [--explain] < urls.txt';

/**
 * Calls `handle` for each line of `io.stdin` (without its line ending; blank lines skipped) and
 * writes each returned object as one JSON line, waiting when stdout asks for back-pressure.
 */
export async function mapJsonLines(io: CommandIo, handle: (line: string) => unknown): Promise<void> {
  const lines = createInterface({ input: io.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    if (!io.stdout.write(JSON.stringify(handle(line)) + '\n')) {
      await new Promise<void>((resolve) => io.stdout.once('drain', resolve));
    }
  }
}

/**
 * `crawlbench normalize`: reads URLs from stdin, one a line, and writes one JSON line per URL:
 * `{"input","normalized","key"}` plus `"rules":[{"rule","before","after"}]` (the rules that fired)
 * with `--explain`. A line that is not a URL gives `{"input","error":{"code","message"}}` and the
 * run goes on. Profiles: shared/url/profiles.ts (issue 3).
 * @returns 0 when stdin was read to the end; 2 for bad flags (one line on stderr)
 * @example printf 'HTTP://Example.com:80/a/../b#x\n' | crawlbench normalize → {"input":"HTTP://Example.com:80/a/../b#x","normalized":"http://example.com/b","key":"…"}
 */
export async function normalizeCommand(argv: string[], io: CommandIo): Promise<number> {
  let values: { profile?: string | undefined; explain?: boolean | undefined };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { profile: { type: 'string' }, explain: { type: 'boolean' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return failLine(io, `normalize: ${(error as Error).message} (${NORMALIZE_USAGE})`);
  }
  const profileName = values.profile ?? 'standard';
  if (!Object.hasOwn(PROFILES, profileName)) {
    return failLine(io, `normalize: --profile must be safe, standard or aggressive, got "${profileName}" (${NORMALIZE_USAGE})`);
  }
  const normalize = createNormalizer(PROFILES[profileName as BuiltInProfileName], { explain: values.explain === true });
  await mapJsonLines(io, (input) => {
    const result = normalize(input);
    if (!result.ok) return { input, error: result.error };
    const { normalized, key, rules } = result.value;
    return rules === undefined ? { input, normalized, key } : { input, normalized, key, rules };
  });
  return 0;
}
