/** `hookline relay HOST`: one event of an agent Hookline is installed into, relayed in this process (the light client's fallback). */
import { HOST_NAMES, RELAY_ENV, type HostName } from '../relay/hosts.js';
import { parseSources, runRelay } from '../relay/run.js';
import { readStdin } from '../relay/stdin.js';
import { UsageError } from './io.js';

export interface RelayCliOptions {
  hooksFrom?: string;
  deadline?: string;
  event?: string;
}

export async function relayCommand(host: string, opts: RelayCliOptions): Promise<number> {
  if (!(HOST_NAMES as readonly string[]).includes(host))
    throw new UsageError(`unknown agent "${host}" — give one of ${HOST_NAMES.join(', ')}`);
  // Inside the relay's own hooks a relay entry answers nothing at once: no loop.
  if (process.env[RELAY_ENV]) return 0;
  const parsed = parseSources(opts.hooksFrom, host as HostName);
  if ('problem' in parsed) throw new UsageError(parsed.problem);
  const seconds = opts.deadline === undefined ? 55 : Number(opts.deadline);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError(`--deadline ${opts.deadline}: not a number of seconds above 0`);
  const a = await runRelay({
    host: host as HostName,
    text: await readStdin(),
    sources: parsed.sources,
    env: process.env,
    cwd: process.cwd(),
    deadlineMs: seconds * 1000,
    ...(opts.event ? { event: opts.event } : {}),
  });
  for (const l of a.stderr) process.stderr.write(`hookline: ${l}\n`);
  process.stdout.write(a.stdout);
  return a.exitCode;
}
