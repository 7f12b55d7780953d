import { parseArgs } from 'node:util';
import { createDomainResolver, DEFAULT_GENERIC_TLDS, validateTldConfig, type PublicSuffixList } from '../../shared/url';
import { failLine } from '../io';
import { publicSuffixListSnapshot } from '../../app/services/url-services';
import type { CommandIo } from '../io';
import { mapJsonLines } from './normalize';

export const DOMAIN_USAGE = 'Usage: crawlbench domain [--mode seed|psl] [--generic com,org,…] [--additional co.uk,…] < hosts-or-urls.txt';

function list(value: string | undefined): string[] | undefined {
  return value === undefined ? undefined : value.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
}

/**
 * `crawlbench domain`: reads hosts or URLs from stdin, one a line, and writes one JSON line each:
 * `{"input","host","registrableDomain","publicSuffix","site","fellBack","trace":[…]}` (plus
 * `"message"` when the lookup fell back to the last two terms, `"error"` for an unusable host).
 * `--mode psl` (default) uses the Public Suffix List snapshot in resources/tld/; `--mode seed`
 * uses seed 000's algorithm over `--generic` (default: the seed's generic list) and
 * `--additional` (default: empty).
 * @returns 0 when stdin was read to the end; 2 for bad flags or list entries (one line on stderr)
 * @example echo www.xyz.co.uk | crawlbench domain --mode seed --additional co.uk → {"input":"www.xyz.co.uk","host":"www.xyz.co.uk","registrableDomain":"xyz.co.uk","publicSuffix":"co.uk",…}
 */
export async function domainCommand(argv: string[], io: CommandIo): Promise<number> {
  let values: { mode?: string | undefined; generic?: string | undefined; additional?: string | undefined };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { mode: { type: 'string' }, generic: { type: 'string' }, additional: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return failLine(io, `domain: ${(error as Error).message} (${DOMAIN_USAGE})`);
  }
  const config = validateTldConfig({
    mode: values.mode ?? 'psl',
    generic: list(values.generic) ?? [...DEFAULT_GENERIC_TLDS],
    additional: list(values.additional) ?? [],
  });
  if (!config.ok) return failLine(io, `domain: ${config.error.message.replace(/^mode /, '--mode ')} (${DOMAIN_USAGE})`);
  let psl: PublicSuffixList | undefined;
  if (config.value.mode === 'psl') {
    try {
      psl = publicSuffixListSnapshot();
    } catch (error) {
      return failLine(io, `domain: cannot read the Public Suffix List snapshot: ${(error as Error).message}`);
    }
  }
  const resolve = createDomainResolver(config.value, psl, { trace: true });
  await mapJsonLines(io, (input) => {
    const { host, registrableDomain, publicSuffix, site, fellBack, message, error, trace } = resolve(input);
    return { input, host, registrableDomain, publicSuffix, site, fellBack, ...(message === undefined ? {} : { message }), ...(error === undefined ? {} : { error }), trace };
  });
  return 0;
}
