/**
 * One relayed event from start to answer, in this process: the host's JSON in, the host's answer
 * out, and whatever goes wrong on Hookline's side (an unreadable event, a crash, its own deadline)
 * turned into the host's fail-closed answer for a guard event (hosts.ts `failedAnswer`).
 */
import { failedAnswer, HOSTS, type HostName, type RelayAnswer } from './hosts.js';
import { relay, SOURCES, type Source } from './relay.js';
import type { WarmStore } from '../dialects/system.js';

export interface RelayRun {
  host: HostName;
  /** The host's event as it sent it (JSON text). */
  text: string;
  /** The event's name, from the entry, when the host's input does not carry it (Copilot CLI). */
  event?: string;
  sources: readonly Source[];
  env: NodeJS.ProcessEnv;
  /** The folder when the event names none. */
  cwd: string;
  /** Hookline's own limit: past it a guard event is refused (the host's timeout is a little longer). */
  deadlineMs: number;
  warm?: WarmStore;
  signal?: AbortSignal;
}

/** `--hooks-from a,b`: the sources named, or a one-line problem. */
export function parseSources(list: string | undefined, host: HostName): { sources: Source[] } | { problem: string } {
  const names =
    list === undefined
      ? ['hookline']
      : list
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
  const unknown = names.filter((n) => !(SOURCES as readonly string[]).includes(n));
  if (unknown.length)
    return {
      problem: `--hooks-from ${unknown.join(',')}: unknown — give hookline (your Hookline settings) or ${SOURCES.filter((s) => s !== 'hookline').join(', ')}`,
    };
  const own = names.filter((n) => HOSTS[host].ownSources.includes(n));
  if (own.length)
    return { problem: `--hooks-from ${own.join(',')}: ${HOSTS[host].label} already runs these hooks itself — they would run twice` };
  return { sources: names as Source[] };
}

export async function runRelay(r: RelayRun): Promise<RelayAnswer> {
  const host = HOSTS[r.host];
  let input: Record<string, unknown>;
  try {
    const v = JSON.parse(r.text) as unknown;
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('not a JSON object');
    input = v as Record<string, unknown>;
  } catch (e) {
    // The entry names its event: a guard's unreadable input is refused, not passed.
    return failedAnswer(r.host, r.event ?? '', `the event from ${host.label} is not readable: ${(e as Error).message}`);
  }
  const event = r.event ?? (typeof input.hook_event_name === 'string' ? input.hook_event_name : '');
  if (host.family === 'copilot' && !r.event)
    return failedAnswer(r.host, '', `the entry names no event (--event): run \`hookline install ${r.host}\` again`);
  const cwd = typeof input.cwd === 'string' && input.cwd ? input.cwd : r.cwd;
  // Past the deadline the hooks still running are stopped (no process is left) and the answer is given.
  const stop = new AbortController();
  const signal = r.signal ? AbortSignal.any([r.signal, stop.signal]) : stop.signal;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<RelayAnswer>((resolve) => {
    timer = setTimeout(() => {
      stop.abort();
      resolve(failedAnswer(r.host, event, `its hooks took longer than ${Math.round(r.deadlineMs / 1000)}s`));
    }, r.deadlineMs);
  });
  try {
    return await Promise.race([
      relay(r.host, input, {
        cwd,
        env: r.env,
        sources: r.sources,
        ...(r.warm ? { warm: r.warm } : {}),
        ...(r.event ? { event: r.event } : {}),
        signal,
      }),
      late,
    ]);
  } catch (e) {
    return failedAnswer(r.host, event, (e as Error).message.split('\n')[0] ?? 'unknown error');
  } finally {
    clearTimeout(timer);
  }
}
