/** `hookline fire` through a running `hookline serve` (HOOKLINE_SOCKET): the same output, from a warm engine. */
import path from 'node:path';
import { UsageError } from '../config/problems.js';
import { call, Unreachable } from './client.js';

export interface RemoteFire {
  cwd: string;
  sessionId?: string;
  transcriptPath?: string;
  dialect?: string;
  config?: string;
}

/** Prints what `hookline fire` prints; false when the server cannot be reached (said in one line on stderr). */
export async function fireThroughServer(socket: string, event: string, input: Record<string, unknown>, opts: RemoteFire): Promise<boolean> {
  const params = {
    event,
    input,
    cwd: opts.cwd,
    ...(opts.sessionId !== undefined ? { sessionId: opts.sessionId } : {}),
    ...(opts.transcriptPath !== undefined ? { transcriptPath: opts.transcriptPath } : {}),
    ...(opts.dialect !== undefined ? { dialect: opts.dialect } : {}),
    ...(opts.config !== undefined ? { config: path.resolve(opts.config) } : {}),
  };
  let answer: Awaited<ReturnType<typeof call>>;
  try {
    answer = await call(socket, 'fire', params);
  } catch (err) {
    // Sent, then no usable answer: the event may have fired there, so it is not fired again here.
    if (!(err instanceof Unreachable))
      throw new UsageError(`HOOKLINE_SOCKET=${socket}: ${(err as Error).message} — is a hookline serve listening there?`);
    process.stderr.write(`hookline: HOOKLINE_SOCKET=${socket} is not reachable (${err.message}); firing in-process\n`);
    return false;
  }
  if ('error' in answer) {
    const data = (answer.error.data ?? {}) as { usage?: string; exitCode?: number; raw?: string[]; warnings?: string[] };
    if (data.exitCode !== undefined) {
      for (const w of data.warnings ?? []) process.stderr.write(`hookline: ${w}\n`);
      for (const l of data.raw ?? []) process.stderr.write(`${l}\n`);
      process.exitCode = data.exitCode;
      return true;
    }
    throw new UsageError(data.usage ?? answer.error.message);
  }
  const { warnings, raw, ...report } = answer.result as { warnings?: string[]; raw?: string[] };
  for (const w of warnings ?? []) process.stderr.write(`hookline: ${w}\n`);
  for (const l of raw ?? []) process.stderr.write(`${l}\n`);
  process.stdout.write(JSON.stringify(report, null, 2) + '\n');
  return true;
}
