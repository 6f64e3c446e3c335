// In-process ("runtime") hooks registered with engine.register.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { cmd, makeProject } from '../helpers.js';
import { runFunction } from '../../src/run/function.js';
import type { AnyHookInput } from '../../src/events/input.js';
import { engineFor, sleep } from './util.js';

const TOOL = { tool_name: 'run_shell_command', tool_input: { command: 'ls' } };

describe('runtime hooks through the engine', () => {
  test('their output is used', async () => {
    const engine = engineFor(makeProject());
    let seen: AnyHookInput | undefined;
    engine.register({
      event: 'BeforeTool',
      name: 'guard',
      action: (input) => {
        seen = input;
        return { decision: 'deny', reason: 'no shell' };
      },
    });
    const res = await engine.fire('BeforeTool', TOOL);
    assert.equal(res.runs[0].name, 'guard');
    assert.equal(res.runs[0].source, 'runtime');
    assert.equal(res.runs[0].success, true);
    assert.equal(res.output?.decision, 'deny');
    assert.equal(res.output?.reason, 'no shell');
    assert.equal(seen?.tool_name, 'run_shell_command');
    assert.equal(seen?.hook_event_name, 'BeforeTool');
  });

  test('a throw is recorded as an error; the other hooks still count', async () => {
    const p = makeProject({
      project: { hooks: { BeforeTool: [{ hooks: [cmd(`echo '{"systemMessage":"command ran"}'`, { name: 'cmd', timeout: 1500 })] }] } },
    });
    const engine = engineFor(p);
    engine.register({
      event: 'BeforeTool',
      name: 'thrower',
      action: () => {
        throw new Error('boom');
      },
    });
    engine.register({
      event: 'BeforeTool',
      name: 'async-thrower',
      action: async () => {
        await sleep(10);
        throw new TypeError('late boom');
      },
    });
    engine.register({ event: 'BeforeTool', name: 'fine', action: () => ({ systemMessage: 'fine ran' }) });
    const res = await engine.fire('BeforeTool', TOOL);
    const by = Object.fromEntries(res.runs.map((r) => [r.name, r]));
    assert.equal(by.thrower.success, false);
    assert.equal(by.thrower.error, 'BeforeTool hook "thrower": boom');
    assert.equal(by['async-thrower'].error, 'BeforeTool hook "async-thrower": late boom');
    assert.equal(by.fine.success, true);
    assert.equal(by.cmd.success, true);
    assert.equal(res.output?.systemMessage, 'fine ran\ncommand ran');
    assert.equal(res.success, false);
  });

  test('timeout: the signal is aborted and the run says "Hook timed out after Nms"', async () => {
    const engine = engineFor(makeProject());
    let signal: AbortSignal | undefined;
    let aborted = false;
    engine.register({
      event: 'BeforeAgent',
      name: 'slow',
      timeout: 300,
      action: (_input, ctx) => {
        signal = ctx.signal;
        ctx.signal.addEventListener('abort', () => (aborted = true));
        return new Promise(() => {});
      },
    });
    engine.register({ event: 'BeforeAgent', name: 'quick', action: () => ({ systemMessage: 'quick' }) });
    const res = await engine.fire('BeforeAgent', { prompt: 'hi' });
    const slow = res.runs.find((r) => r.name === 'slow')!;
    assert.equal(slow.error, 'BeforeAgent hook "slow": Hook timed out after 300ms');
    assert.equal(slow.timedOut, true);
    assert.equal(slow.success, false);
    assert.equal(signal?.aborted, true);
    assert.equal(aborted, true, 'the abort listener ran');
    assert.equal(res.output?.systemMessage, 'quick');
  });

  test('returning undefined (or null) gives no output and succeeds', async () => {
    const engine = engineFor(makeProject());
    engine.register({ event: 'BeforeTool', name: 'silent', action: () => undefined });
    engine.register({ event: 'BeforeTool', name: 'nullish', action: async () => null });
    const res = await engine.fire('BeforeTool', TOOL);
    assert.equal(res.runs.length, 2);
    for (const r of res.runs) {
      assert.equal(r.success, true);
      assert.equal(r.output, undefined);
      assert.equal(r.error, undefined);
    }
    assert.equal(res.output, undefined);
  });

  test('a non-object return value is not an output', async () => {
    const engine = engineFor(makeProject());
    engine.register({ event: 'BeforeTool', name: 'num', action: (() => 42) as never });
    engine.register({ event: 'BeforeTool', name: 'str', action: (() => 'deny') as never });
    const res = await engine.fire('BeforeTool', TOOL);
    for (const r of res.runs) assert.equal(r.output, undefined, r.name);
    assert.equal(res.output, undefined);
  });

  test('the action gets a copy: mutating it changes nothing for other hooks', async () => {
    const engine = engineFor(makeProject());
    const seen: unknown[] = [];
    engine.register({
      event: 'BeforeTool',
      name: 'mutator',
      sequential: true,
      action: (input) => {
        (input.tool_input as Record<string, unknown>).command = 'rm -rf /';
      },
    });
    engine.register({
      event: 'BeforeTool',
      name: 'reader',
      action: (input) => {
        seen.push(structuredClone(input.tool_input));
      },
    });
    const res = await engine.fire('BeforeTool', TOOL);
    assert.deepEqual(seen, [{ command: 'ls' }]);
    assert.deepEqual(res.input.tool_input, { command: 'ls' });
  });

  test('matcher and sequential are honoured', async () => {
    const engine = engineFor(makeProject());
    const calls: string[] = [];
    engine.register({
      event: 'BeforeTool',
      name: 'shell-only',
      matcher: 'run_shell',
      action: () => {
        calls.push('shell-only');
      },
    });
    engine.register({
      event: 'BeforeAgent',
      name: 'first',
      sequential: true,
      action: () => ({ hookSpecificOutput: { additionalContext: 'ctx1' } }),
    });
    let prompt = '';
    engine.register({
      event: 'BeforeAgent',
      name: 'second',
      action: (input) => {
        prompt = input.prompt as string;
      },
    });
    await engine.fire('BeforeTool', { tool_name: 'read_file', tool_input: {} });
    assert.deepEqual(calls, []);
    await engine.fire('BeforeTool', TOOL);
    assert.deepEqual(calls, ['shell-only']);
    const res = await engine.fire('BeforeAgent', { prompt: 'hello' });
    assert.equal(res.sequential, true);
    assert.equal(prompt, 'hello\n\nctx1');
  });

  test('they survive reload() and a settings change', async () => {
    const p = makeProject({ user: {} });
    const engine = engineFor(p, { watchConfig: true, configCheckIntervalMs: 0 });
    let n = 0;
    engine.register({
      event: 'SessionStart',
      name: 'counter',
      action: () => {
        n++;
      },
    });
    engine.reload();
    await engine.fire('SessionStart', { source: 'startup' });
    assert.equal(n, 1);
    // A settings file change makes the engine reload before the next event.
    const userFile = path.join(p.home, '.gemini', 'settings.json');
    fs.writeFileSync(
      userFile,
      JSON.stringify({ hooks: { SessionStart: [{ hooks: [cmd(`echo '{"systemMessage":"from settings"}'`, { timeout: 1500 })] }] } }),
    );
    const res = await engine.fire('SessionStart', { source: 'startup' });
    assert.equal(n, 2);
    assert.deepEqual(
      res.runs.map((r) => r.source),
      ['runtime', 'user'],
    );
  });

  test('the unregister function removes the hook', async () => {
    const engine = engineFor(makeProject());
    let n = 0;
    const off = engine.register({
      event: 'SessionStart',
      name: 'once',
      action: () => {
        n++;
      },
    });
    await engine.fire('SessionStart', { source: 'startup' });
    off();
    await engine.fire('SessionStart', { source: 'startup' });
    assert.equal(n, 1);
  });

  test('never fingerprinted: they run in an untrusted folder where project hooks are held', async () => {
    const p = makeProject({
      trusted: false,
      project: { hooks: { BeforeTool: [{ hooks: [cmd(`echo '{"decision":"deny"}'`, { name: 'project-hook' })] }] } },
    });
    const engine = engineFor(p);
    assert.equal(engine.trustedFolder, false);
    engine.register({ event: 'BeforeTool', name: 'rt', action: () => ({ systemMessage: 'runtime ran' }) });
    const res = await engine.fire('BeforeTool', TOOL);
    assert.deepEqual(
      res.runs.map((r) => r.name),
      ['rt'],
    );
    assert.equal(res.output?.systemMessage, 'runtime ran');
    assert.ok(engine.heldBack.some((h) => h.entry.hook.name === 'project-hook'));
    const fp = path.join(p.home, '.gemini', 'trusted_hooks.json');
    if (fs.existsSync(fp)) assert.ok(!fs.readFileSync(fp, 'utf8').includes('"rt'), 'runtime hook was fingerprinted');
  });

  test('never fingerprinted: a trusted folder with recorded hooks does not hold a new runtime hook', async () => {
    const p = makeProject({
      project: { hooks: { BeforeTool: [{ hooks: [cmd(`echo '{"systemMessage":"project ran"}'`, { name: 'p', timeout: 1500 })] }] } },
    });
    const fp = path.join(p.home, '.gemini', 'trusted_hooks.json');
    const before = fs.readFileSync(fp, 'utf8');
    const engine = engineFor(p);
    engine.register({ event: 'BeforeTool', name: 'rt', action: () => ({ systemMessage: 'runtime ran' }) });
    engine.reload();
    const res = await engine.fire('BeforeTool', TOOL);
    assert.deepEqual(
      res.runs.map((r) => r.name),
      ['rt', 'p'],
    );
    assert.deepEqual(engine.heldBack, []);
    assert.equal(fs.readFileSync(fp, 'utf8'), before);
  });
});

describe('runFunction', () => {
  const input = { session_id: 's', transcript_path: '', cwd: '/', hook_event_name: 'BeforeTool', timestamp: '' } as AnyHookInput;

  test('an outer abort cancels the action and aborts its signal', async () => {
    const ac = new AbortController();
    let inner: AbortSignal | undefined;
    // Aborted once the action is running; the timeout is far past the test, so only the abort ends it.
    const action = (_i: unknown, ctx: { signal: AbortSignal }) => {
      inner = ctx.signal;
      setImmediate(() => ac.abort());
      return new Promise<never>(() => {});
    };
    const r = await runFunction({ type: 'runtime', name: 'x', timeout: 120_000, action }, input, ac.signal);
    assert.equal(r.success, false);
    assert.equal(r.error, 'Hook cancelled');
    assert.equal(inner?.aborted, true);
  });

  test('a throwing action leaves no unhandled rejection behind', async () => {
    const seen: unknown[] = [];
    const onUnhandled = (e: unknown) => seen.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const r = await runFunction(
        {
          type: 'runtime',
          name: 'x',
          timeout: 1500,
          action: () => {
            throw new Error('boom');
          },
        },
        input,
      );
      assert.equal(r.error, 'boom');
      await sleep(20);
      assert.deepEqual(seen, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  test('an already aborted signal cancels at once', async () => {
    const ac = new AbortController();
    ac.abort();
    const r = await runFunction({ type: 'runtime', name: 'x', timeout: 1500, action: () => new Promise(() => {}) }, input, ac.signal);
    assert.equal(r.error, 'Hook cancelled');
    assert.ok(r.durationMs < 500);
  });

  test('a thrown non-Error value is still reported', async () => {
    const r = await runFunction(
      {
        type: 'runtime',
        name: 'x',
        action: () => {
          throw 'plain string';
        },
      },
      input,
    );
    assert.equal(r.success, false);
    assert.equal(r.error, 'plain string');
  });

  test('a successful action leaves its signal un-aborted', async () => {
    let inner: AbortSignal | undefined;
    const r = await runFunction(
      {
        type: 'runtime',
        name: 'x',
        timeout: 1500,
        action: (_i, ctx) => {
          inner = ctx.signal;
          return { decision: 'allow' };
        },
      },
      input,
    );
    assert.equal(r.success, true);
    assert.deepEqual(r.output, { decision: 'allow' });
    assert.equal(inner?.aborted, false);
  });
});
