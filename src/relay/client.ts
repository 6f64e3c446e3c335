/**
 * `relay.cjs HOST [--event NAME] [--hooks-from LIST] [--deadline SECONDS]`: what a Hookline entry in another
 * agent's configuration runs for each event. It loads almost nothing: it hands the event to the
 * user's warm `hookline serve` over its socket (starting one, owner-only and stopped when idle,
 * when none answers), and only when no server can be had does it run the full `hookline relay`
 * in a child. Whatever fails, a guard event gets the host's refusal, never a silent pass.
 */
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { call, Unreachable } from '../serve/client.js';
import { defaultSocketPath } from '../serve/places.js';
import { readStdin } from './stdin.js';
import { failedAnswer, HOST_NAMES, RELAY_ENV, type HostName, type RelayAnswer } from './answers.js';

const LAUNCHER = path.join(__dirname, 'hookline.cjs');

/** child_process is loaded only when a process is started (not on the common path: a warm server answering). */
function spawn(cmd: string, args: string[], opts: SpawnOptions): ChildProcess {
  return (require('node:child_process') as typeof import('node:child_process')).spawn(cmd, args, opts);
}
/** How long a server the client started may take to listen. */
const START_MS = 3000;
/** A server the client starts stops after this long with no event. */
const IDLE_EXIT_S = 1800;
/** With Claude Code's http entries, which only a running server answers, it stays longer (a long tool call has no events). */
const HTTP_IDLE_EXIT_S = 4 * 3600;

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
}

function print(a: RelayAnswer): void {
  for (const l of a.stderr) process.stderr.write(`hookline: ${l}\n`);
  process.stdout.write(a.stdout);
  process.exitCode = a.exitCode;
}

/** The environment this event's hooks get: the host's, without Hookline's own markers. */
function hostEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== RELAY_ENV) out[k] = v;
  return out;
}

function listening(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const c = net.connect(socket);
    c.once('connect', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });
}

/** Starts the user's server in the background (it outlives this event) and waits until it listens. */
async function startServer(socket: string, httpPort: number | undefined): Promise<boolean> {
  const args = httpPort
    ? ['--relay-port', String(httpPort), '--idle-exit', String(HTTP_IDLE_EXIT_S)]
    : ['--idle-exit', String(IDLE_EXIT_S)];
  const child = spawn(process.execPath, [LAUNCHER, 'serve', '--socket', socket, ...args], {
    detached: true,
    stdio: 'ignore',
    env: hostEnv(),
  });
  // A server that cannot start (the path is taken, the folder is not private) exits at once: no waiting it out.
  let gone = false;
  child.on('error', () => (gone = true));
  child.on('exit', () => (gone = true));
  child.unref();
  const until = Date.now() + START_MS;
  while (!gone && Date.now() < until) {
    if (await listening(socket)) return true;
    await new Promise((r) => setTimeout(r, 30));
  }
  // Another event's relay may have started one meanwhile (which is why this one stopped).
  return listening(socket);
}

/** The full relay in a child, when no server can be had. */
function inChild(host: HostName, args: string[], text: string, deadlineMs: number): Promise<RelayAnswer> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [LAUNCHER, 'relay', host, '--in-process', ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), deadlineMs + 2000);
    child.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.on('error', (e) => resolve(failedAnswer(host, eventOf(text), `hookline could not start: ${e.message}`)));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(
        code === 0 ? { stdout: out, exitCode: 0, stderr: [] } : failedAnswer(host, eventOf(text), `hookline relay exited with ${code}`),
      );
    });
    child.stdin?.on('error', () => {});
    child.stdin?.end(text);
  });
}

/** An answer that says the http entries have no server to post to (so the agent refuses what they guard). */
function withoutServer(a: RelayAnswer, port: number): RelayAnswer {
  const line = `Hookline's server could not start: its http entries (127.0.0.1:${port}) go unanswered, and guarded actions are refused`;
  let json: Record<string, unknown> = {};
  try {
    if (a.stdout.trim()) json = JSON.parse(a.stdout) as Record<string, unknown>;
  } catch {
    return a;
  }
  const said = typeof json.systemMessage === 'string' ? `${json.systemMessage}\n` : '';
  return { ...a, stdout: `${JSON.stringify({ ...json, systemMessage: `${said}${line}` })}\n`, stderr: [...a.stderr, line] };
}

/** The entry's `--event` (Copilot CLI's input names none), else the input's `hook_event_name`. */
function eventOf(text: string): string {
  const named = flag(process.argv.slice(3), '--event');
  if (named) return named;
  try {
    const v = JSON.parse(text) as { hook_event_name?: unknown };
    return typeof v.hook_event_name === 'string' ? v.hook_event_name : '';
  } catch {
    return '';
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const host = args.shift() as HostName;
  // Inside the relay's own hooks a relay entry answers nothing at once: no loop.
  if (process.env[RELAY_ENV]) return;
  if (!HOST_NAMES.includes(host)) {
    process.stderr.write(`hookline relay: unknown agent "${host}" — give one of ${HOST_NAMES.join(', ')}\n`);
    process.exitCode = 2;
    return;
  }
  const text = await readStdin();
  const deadlineMs = (Number(flag(args, '--deadline')) || 55) * 1000;
  const hooksFrom = flag(args, '--hooks-from');
  const hookEvent = flag(args, '--event');
  const httpPort = Number(flag(args, '--http-port')) || undefined;
  const socket = process.env.HOOKLINE_SOCKET ?? defaultSocketPath();
  const params = {
    host,
    event: text,
    cwd: process.cwd(),
    deadlineMs,
    env: hostEnv(),
    ...(hooksFrom ? { hooksFrom } : {}),
    ...(hookEvent ? { hookEvent } : {}),
    ...(httpPort ? { httpPort } : {}),
  };
  const ask = async (): Promise<RelayAnswer> => {
    const a = await call(socket, 'relay', params, { deadlineMs: deadlineMs + 2000 });
    if ('error' in a) return failedAnswer(host, eventOf(text), a.error.message);
    return a.result as RelayAnswer;
  };
  try {
    print(await ask());
  } catch (e) {
    if (!(e instanceof Unreachable)) return print(failedAnswer(host, eventOf(text), (e as Error).message));
    if (await startServer(socket, httpPort).catch(() => false)) {
      try {
        return print(await ask());
      } catch {
        // the server went away again: the event still gets an answer below
      }
    }
    // The port (nothing can listen in a child) and the shell client's --guard are not the full relay's business.
    const own = args.filter((a, i) => a !== '--guard' && a !== '--http-port' && args[i - 1] !== '--http-port');
    const answer = await inChild(host, own, text, deadlineMs);
    print(httpPort ? withoutServer(answer, httpPort) : answer);
  }
}

main().catch((e) => {
  process.stderr.write(`hookline relay: ${(e as Error).message}\n`);
  process.exitCode = 1;
});
