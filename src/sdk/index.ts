/**
 * hookline/sdk: write a hook once and run it both as a one-shot command (JSON on stdin, JSON on
 * stdout) and as a persistent process (one JSON line per event, see src/run/persistent.ts).
 * No runtime dependencies, so a hook starts fast; a one-shot hook on pipes or files reads and
 * writes its file descriptors directly, without Node's stdio streams (which load `net`).
 */
import type { Readable } from 'node:stream';
import fs from 'node:fs';
import type { EventName } from '../events/names.js';
import type { HookInput } from '../events/input.js';
import type { HookOutput } from '../events/output.js';
import type { LLMResponse } from '../events/model.js';

export type { EventName, HookInput, HookOutput };

/** The input a hook receives, narrowed by `hook_event_name`. */
export type AnyInput = { [E in EventName]: HookInput<E> & { hook_event_name: E } }[EventName];

export interface HookContext {
  /** True when running as a persistent process. */
  persistent: boolean;
}

export type Handler = (input: AnyInput, ctx: HookContext) => HookOutput | void | undefined | Promise<HookOutput | void | undefined>;

export interface DefineOptions {
  /** Persistent mode: handle events concurrently (default: one at a time, in order). */
  concurrent?: boolean;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
  /** Forces the mode; by default HOOKLINE_PERSISTENT=1 selects persistent mode. */
  persistent?: boolean;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let s = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream) s += chunk as string;
  return s;
}

/** A pipe, socket or file: never a terminal, and read or written as a stream would (no device). */
function plainFd(fd: number): boolean {
  try {
    const st = fs.fstatSync(fd);
    return st.isFIFO() || st.isSocket() || st.isFile();
  } catch {
    return false;
  }
}

const wouldBlock = (err: unknown) => (err as NodeJS.ErrnoException).code === 'EAGAIN';

/** Whether anything of the hook's own is pending (a file closing, as after loading an ES module, is not). */
const busy = () => process.getActiveResourcesInfo().some((r) => r !== 'CloseReq');

/**
 * All of fd 0, read synchronously: only when nothing else is pending in the process (no timer,
 * socket or stream of the hook's own would wait on it) and fd 0 is a pipe or file. A non-blocking
 * fd with no data yet hands over to process.stdin with what was read so far. Undefined: use the stream.
 */
async function readFd0(): Promise<string | undefined> {
  if (busy() || !plainFd(0)) return undefined;
  const chunks: Buffer[] = [];
  const buf = Buffer.allocUnsafe(65536);
  for (;;) {
    let n: number;
    try {
      n = fs.readSync(0, buf, 0, buf.length, null);
    } catch (err) {
      if (!wouldBlock(err)) throw err;
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      break;
    }
    if (n === 0) break;
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Writes to fd 1 synchronously (as process.stdout does on a Linux pipe or file) unless a write of
 * the hook's own is still in flight, which must come first; a full non-blocking pipe hands the
 * rest to process.stdout.
 */
function writeOut(text: string): void {
  const pending = process.getActiveResourcesInfo().some((r) => r.endsWith('WriteWrap'));
  if (pending || !plainFd(1)) {
    process.stdout.write(text);
    return;
  }
  let data = Buffer.from(text, 'utf8');
  while (data.length > 0) {
    try {
      data = data.subarray(fs.writeSync(1, data));
    } catch (err) {
      if (!wouldBlock(err)) throw err;
      process.stdout.write(data);
      return;
    }
  }
}

const TRY_BY_HAND = `echo '{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}' | node <this hook>`;

/**
 * The event from stdin, or a one-line error. Exit status 2 (a blocking error): a guard that
 * cannot read what it guards refuses rather than lets it through.
 */
async function readInput(io: Io): Promise<AnyInput | undefined> {
  const fail = (what: string) => {
    io.stderr.write(
      `hook input: ${what} — Hookline sends the event as one JSON object on stdin; to try the hook by hand: ${TRY_BY_HAND}\n`,
    );
    return undefined;
  };
  const direct = io.own.stdin ? undefined : await readFd0();
  if (direct === undefined && (io.stdin as NodeJS.ReadStream).isTTY) return fail('stdin is a terminal, not the event');
  const text = direct ?? (await readAll(io.stdin));
  if (!text.trim()) return fail('stdin is empty');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return fail(`not JSON (${(err as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('not a JSON object');
  return value as AnyInput;
}

async function oneShot(handler: Handler, io: Io): Promise<number> {
  const input = await readInput(io);
  if (!input) return 2;
  try {
    const out = await handler(input, { persistent: false });
    if (out && io.own.stdout) io.stdout.write(JSON.stringify(out));
    else if (out) writeOut(JSON.stringify(out));
    return 0;
  } catch (err) {
    io.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

async function persistent(handler: Handler, concurrent: boolean, io: Io): Promise<number> {
  const reply = (msg: unknown) => io.stdout.write(JSON.stringify(msg) + '\n');
  const handle = async (id: unknown, input: AnyInput) => {
    try {
      const out = await handler(input, { persistent: true });
      reply({ id, output: out ?? null });
    } catch (err) {
      reply({ id, exitCode: 1, stderr: err instanceof Error ? err.message : String(err) });
    }
  };
  reply({ hookline: 'ready', concurrent });
  let buffer = '';
  let chain: Promise<void> = Promise.resolve();
  const stdin = io.stdin;
  stdin.setEncoding('utf8');
  // 'data' rather than an async iterator: a request is handled in the turn its chunk arrives.
  stdin.on('data', (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (!line.trim()) continue;
      let req: { id?: unknown; input?: AnyInput };
      try {
        req = JSON.parse(line);
      } catch {
        io.stderr.write(`hookline/sdk: ignoring a line that is not JSON\n`);
        continue;
      }
      if (concurrent) void handle(req.id, req.input as AnyInput);
      else chain = chain.then(() => handle(req.id, req.input as AnyInput));
    }
  });
  // Done at its end; a read error fails the hook, as it would a one-shot one. A stream already
  // over, or paused, is taken as it is.
  const readable = stdin as Partial<Readable>;
  await new Promise<void>((resolve, reject) => {
    if (readable.errored) return reject(readable.errored);
    if (readable.readableEnded || readable.destroyed) return resolve();
    stdin.once('end', resolve);
    stdin.once('close', resolve);
    stdin.once('error', reject);
    stdin.resume();
  });
  await chain;
  return 0;
}

/** The streams given, else the process's: each of those is made only when first used. */
interface Io extends Required<Pick<DefineOptions, 'stdin' | 'stdout' | 'stderr'>> {
  own: Pick<DefineOptions, 'stdin' | 'stdout'>;
}

function streams(opts: DefineOptions): Io {
  return {
    own: { stdin: opts.stdin, stdout: opts.stdout },
    get stdin() {
      return opts.stdin ?? process.stdin;
    },
    get stdout() {
      return opts.stdout ?? process.stdout;
    },
    get stderr() {
      return opts.stderr ?? process.stderr;
    },
  };
}

/** Runs `handler` as this process's hook, in whichever mode Hookline started it. */
export async function defineHook(handler: Handler, opts: DefineOptions = {}): Promise<void> {
  const io = streams(opts);
  const isPersistent = opts.persistent ?? process.env.HOOKLINE_PERSISTENT === '1';
  const code = isPersistent ? await persistent(handler, opts.concurrent ?? false, io) : await oneShot(handler, io);
  if (!opts.stdout) process.exitCode = code;
}

// Output builders: small, typed shortcuts for what hooks answer most.

export const allow = (extra: HookOutput = {}): HookOutput => ({ decision: 'allow', ...extra });
export const deny = (reason: string, extra: HookOutput = {}): HookOutput => ({ decision: 'deny', reason, ...extra });
export const ask = (systemMessage?: string): HookOutput => ({ decision: 'ask', ...(systemMessage ? { systemMessage } : {}) });
export const stop = (stopReason: string): HookOutput => ({ continue: false, stopReason });
export const message = (systemMessage: string): HookOutput => ({ systemMessage });

/** Context for the model: SessionStart, BeforeAgent or AfterTool. */
export const addContext = (event: 'SessionStart' | 'BeforeAgent' | 'AfterTool', additionalContext: string): HookOutput => ({
  hookSpecificOutput: { hookEventName: event, additionalContext },
});

/** BeforeTool: arguments merged over the model's. */
export const rewriteToolInput = (toolInput: Record<string, unknown>): HookOutput => ({
  hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: toolInput },
});

/** AfterTool: run another tool whose result replaces this one's. */
export const tailToolCall = (name: string, args: Record<string, unknown> = {}): HookOutput => ({
  hookSpecificOutput: { hookEventName: 'AfterTool', tailToolCallRequest: { name, args } },
});

const textResponse = (text: string): LLMResponse => ({ candidates: [{ content: { role: 'model', parts: [text] }, finishReason: 'STOP' }] });

/** AfterModel: replaces the chunk's text. */
export const replaceResponse = (text: string): HookOutput => ({
  hookSpecificOutput: { hookEventName: 'AfterModel', llm_response: textResponse(text) },
});

/** BeforeModel: skips the model call and answers `text` instead. */
export const syntheticResponse = (text: string, reason = 'answered by a hook'): HookOutput => ({
  decision: 'deny',
  reason,
  hookSpecificOutput: { hookEventName: 'BeforeModel', llm_response: textResponse(text) },
});

/** BeforeToolSelection: the tool-calling mode and the allowed tools. */
export const selectTools = (mode: 'AUTO' | 'ANY' | 'NONE', allowedFunctionNames: string[] = []): HookOutput => ({
  hookSpecificOutput: { hookEventName: 'BeforeToolSelection', toolConfig: { mode, allowedFunctionNames } },
});

/** AfterAgent: reject the answer and send `reason` back as a new prompt. */
export const retry = (reason: string): HookOutput => ({ decision: 'deny', reason });
