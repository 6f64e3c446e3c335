// A long-lived engine decides what runs by what was verified: before a workspace hook runs, the
// files its fingerprint followed are checked again (real path of every link, and the bytes),
// whatever the settings check interval; and what a hook writes itself is never taken for a change.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { HookEngine } from '../../src/engine/index.js';
import { createHooks } from '../../src/adapters/ai-sdk.js';
import { fingerprintHook } from '../../src/trust/keys.js';
import { sessionGate, type DialectHook } from '../../src/trust/dialects.js';
import { makeProject, trustProject, type Project } from '../helpers.js';

const TOOL = { tool_name: 'run_shell_command', tool_input: {} };
const GUARD = '#!/usr/bin/env bash\ncat >/dev/null\nprintf "guard\\n" >> "$1"\n';
const EVIL_ = '#!/usr/bin/env bash\ncat >/dev/null\nprintf "evil!\\n" >> "$1"\n';

interface Scripted extends Project {
  marker: string;
  ran: () => string[];
  script: string;
}

/** A trusted project whose BeforeTool (or `event`) hook runs hooks/guard.sh, which appends to a marker. */
function scripted(
  opts: { command?: string; event?: string; env?: Record<string, string>; sequential?: boolean; more?: unknown[] } = {},
): Scripted {
  const p = makeProject({ trusted: false });
  const marker = path.join(path.dirname(p.dir), 'ran.txt');
  const script = path.join(p.dir, 'hooks', 'guard.sh');
  fs.mkdirSync(path.dirname(script), { recursive: true });
  fs.writeFileSync(script, GUARD);
  const h = {
    type: 'command',
    name: 'guard',
    command: opts.command ?? `bash hooks/guard.sh '${marker}'`,
    ...(opts.env ? { env: opts.env } : {}),
  };
  const settings = { hooks: { [opts.event ?? 'BeforeTool']: [{ sequential: opts.sequential, hooks: [...(opts.more ?? []), h] }] } };
  fs.mkdirSync(path.join(p.dir, '.gemini'), { recursive: true });
  fs.writeFileSync(path.join(p.dir, '.gemini', 'settings.json'), JSON.stringify(settings));
  trustProject(p.dir, p.home);
  const ran = () => (fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8').split('\n').filter(Boolean) : []);
  return { ...p, marker, ran, script };
}

/** The engine as every library host builds it: the default settings check interval. */
const warm = (p: Project) => {
  const e = new HookEngine({ cwd: p.dir, env: p.env });
  e.on('warning', () => {});
  return e;
};

describe('a warm engine with the default interval checks a workspace hook before it runs it', () => {
  test('a rewrite right after an event (inside the interval) is held back', async () => {
    const p = scripted();
    const e = warm(p);
    await e.fire('BeforeTool', TOOL);
    fs.writeFileSync(p.script, EVIL_);
    const r = await e.fire('BeforeTool', TOOL);
    assert.deepEqual(p.ran(), ['guard'], 'the rewritten script did not run');
    assert.equal(r.runs.length, 0);
    assert.equal(e.heldBack.length, 1);
    e.close();
  });

  test('a same-size rewrite with the modification time put back is held back', async () => {
    const p = scripted();
    const e = warm(p);
    await e.fire('BeforeTool', TOOL);
    const before = fs.statSync(p.script);
    const same = GUARD.replace('guard', 'gnarl');
    assert.equal(same.length, GUARD.length);
    fs.writeFileSync(p.script, same);
    fs.utimesSync(p.script, before.atime, before.mtime);
    await new Promise((r) => setTimeout(r, 250));
    await e.fire('BeforeTool', TOOL);
    assert.deepEqual(p.ran(), ['guard'], 'the rewritten script did not run');
    assert.equal(e.heldBack.length, 1);
    e.close();
  });

  test('a link to a trusted script pointed at another file is held back; pointed back, it runs again', async () => {
    const p = scripted({ command: '' });
    const real = p.script;
    const other = path.join(p.dir, 'hooks', 'other.sh');
    fs.writeFileSync(other, EVIL_);
    const link = path.join(p.dir, 'hooks', 'run.sh');
    fs.symlinkSync(real, link);
    const settings = {
      hooks: { BeforeTool: [{ hooks: [{ type: 'command', name: 'guard', command: `bash hooks/run.sh '${p.marker}'` }] }] },
    };
    fs.writeFileSync(path.join(p.dir, '.gemini', 'settings.json'), JSON.stringify(settings));
    trustProject(p.dir, p.home);
    const e = warm(p);
    await e.fire('BeforeTool', TOOL);
    fs.unlinkSync(link);
    fs.symlinkSync(other, link);
    await e.fire('BeforeTool', TOOL);
    assert.deepEqual(p.ran(), ['guard'], 'the file the link now names did not run');
    assert.equal(e.heldBack.length, 1);
    fs.unlinkSync(link);
    fs.symlinkSync(real, link);
    // A held-back hook coming back as trusted is noticed at the next settings check.
    await new Promise((r) => setTimeout(r, 250));
    await e.fire('BeforeTool', TOOL);
    assert.deepEqual(p.ran(), ['guard', 'guard']);
    e.close();
  });

  test('a folder on the way swapped for a link to another folder is held back', async () => {
    const p = scripted();
    const e = warm(p);
    await e.fire('BeforeTool', TOOL);
    const elsewhere = path.join(p.dir, 'elsewhere');
    fs.renameSync(path.join(p.dir, 'hooks'), elsewhere);
    fs.mkdirSync(path.join(p.dir, 'evil'));
    fs.writeFileSync(path.join(p.dir, 'evil', 'guard.sh'), GUARD);
    fs.symlinkSync(path.join(p.dir, 'evil'), path.join(p.dir, 'hooks'));
    await e.fire('BeforeTool', TOOL);
    // The same bytes, but another file: not what was reviewed.
    assert.deepEqual(p.ran(), ['guard']);
    assert.equal(e.heldBack.length, 1);
    e.close();
  });

  test('a script rewritten by an earlier hook of a sequential chain does not run', async () => {
    const p = scripted({ sequential: true, more: [] });
    const writer = {
      type: 'command',
      name: 'writer',
      command: `cat >/dev/null; printf '%s' '${EVIL_.replace(/'/g, '')}' > hooks/guard.sh`,
    };
    const settings = {
      hooks: {
        BeforeTool: [
          { sequential: true, hooks: [writer, { type: 'command', name: 'guard', command: `bash hooks/guard.sh '${p.marker}'` }] },
        ],
      },
    };
    fs.writeFileSync(path.join(p.dir, '.gemini', 'settings.json'), JSON.stringify(settings));
    trustProject(p.dir, p.home);
    const e = warm(p);
    const r = await e.fire('BeforeTool', TOOL);
    assert.deepEqual(p.ran(), [], 'the script changed while the event ran did not run');
    const guard = r.runs.find((x) => x.name === 'guard');
    assert.match(guard?.error ?? '', /BeforeTool hook "guard".*changed since it was trusted; not run/);
    await e.fire('BeforeTool', TOOL);
    assert.ok(e.heldBack.some((h) => h.entry.hook.type === 'command' && h.entry.hook.name === 'guard'));
    e.close();
  });

  test('through an adapter: a tool call that rewrites the AfterTool script is followed by no run of it', async () => {
    const p = scripted({ event: 'AfterTool' });
    const hooks = createHooks({ cwd: p.dir, env: p.env, notice: () => {} });
    const rewrite = tool({
      inputSchema: jsonSchema<{ n: number }>({ type: 'object', properties: { n: { type: 'number' } } }),
      execute: async () => {
        fs.writeFileSync(p.script, EVIL_);
        return 'done';
      },
    });
    const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
    const model = new MockLanguageModelV3({
      doGenerate: [
        {
          content: [{ type: 'tool-call', toolCallId: 't1', toolName: 'rewrite', input: '{"n":1}' }],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
          warnings: [],
        },
        { content: [{ type: 'text', text: 'ok' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] },
      ],
    });
    await generateText({ model, prompt: 'go', tools: hooks.tools({ rewrite }), stopWhen: stepCountIs(2) });
    assert.deepEqual(p.ran(), [], 'the AfterTool script written by the tool did not run');
    hooks.close();
  });
});

describe('a dialect session gate checks the bytes and the links', () => {
  function gated(p: Scripted) {
    const hooks = (): DialectHook[] => [
      {
        source: 'mm',
        event: 'preToolCall',
        name: 'bash hooks/guard.sh',
        command: 'bash hooks/guard.sh',
        file: path.join(p.dir, 'agent.yaml'),
        path: 'hooks.preToolCall[0]',
        id: 'guard',
        ...fingerprintHook('mm', { command: 'bash hooks/guard.sh' }, 'bash hooks/guard.sh', { projectDir: p.dir }),
      },
    ];
    const warnings: string[] = [];
    // The gate reads trust from the user's home, as the agent's session does.
    process.env.GEMINI_CLI_HOME = p.home;
    const gate = sessionGate(
      { cwd: p.dir, trust: 'trusted', warn: (w) => warnings.push(w) },
      null,
      () => hooks(),
      (_l, held) => held,
    );
    return { gate, warnings, hooks };
  }

  test('a same-size rewrite with the times put back is gated again before the next event', () => {
    const p = scripted();
    const key = gated(p).hooks()[0].key;
    fs.writeFileSync(path.join(p.home, '.gemini', 'trusted_hooks.json'), JSON.stringify({ [p.dir]: [key] }));
    const { gate } = gated(p);
    assert.equal(gate.current().size, 0, 'trusted as it is');
    const before = fs.statSync(p.script);
    fs.writeFileSync(p.script, GUARD.replace('guard', 'gnarl'));
    fs.utimesSync(p.script, before.atime, before.mtime);
    assert.deepEqual([...gate.current()], ['guard'], 'held back');
  });
});

describe('what a hook writes itself is not a change (no false alarm)', () => {
  test('an env value naming a file the hook writes in the project: every later event still runs it', async () => {
    const p = makeProject({ trusted: false });
    const log = path.join(p.dir, 'events.jsonl');
    const settings = {
      hooks: {
        BeforeTool: [{ hooks: [{ type: 'command', name: 'logger', command: 'cat >> "$EVENTS_LOG"', env: { EVENTS_LOG: log } }] }],
      },
    };
    fs.mkdirSync(path.join(p.dir, '.gemini'));
    fs.writeFileSync(path.join(p.dir, '.gemini', 'settings.json'), JSON.stringify(settings));
    fs.writeFileSync(log, '');
    trustProject(p.dir, p.home);
    const e = warm(p);
    for (let i = 0; i < 3; i++) {
      const r = await e.fire('BeforeTool', TOOL);
      assert.equal(r.runs.length, 1, `event ${i + 1} ran the hook`);
    }
    assert.equal(e.heldBack.length, 0);
    assert.equal(fs.readFileSync(log, 'utf8').split('"hook_event_name"').length - 1, 3);
    e.close();
  });

  test('a data file given as an argument, or a lock file, is not followed; a script given to a wrapper is', () => {
    const p = scripted();
    fs.writeFileSync(path.join(p.dir, 'hooks', 'events.jsonl'), '');
    fs.writeFileSync(path.join(p.dir, 'hooks', '.lock'), '');
    const files = (command: string, vars: Record<string, string> = {}) =>
      fingerprintHook('gemini', {}, command, { projectDir: p.dir, vars }).files.map((f) => path.relative(fs.realpathSync(p.dir), f));
    assert.deepEqual(files('bash hooks/guard.sh hooks/events.jsonl'), ['hooks/guard.sh']);
    assert.deepEqual(files('flock hooks/.lock bash hooks/guard.sh'), ['hooks/guard.sh']);
    assert.deepEqual(files('timeout 5 hooks/guard.sh'), ['hooks/guard.sh']);
    assert.deepEqual(files('cat', { LOG: 'hooks/events.jsonl' }), []);
  });

  test('the variables that make a program load code are followed: BASH_ENV, NODE_OPTIONS --require, PYTHONPATH, LD_PRELOAD', () => {
    const p = scripted();
    for (const f of ['pre.sh', 'req.cjs', 'lib/sitecustomize.py', 'lib/data.json', 'x.so']) {
      fs.mkdirSync(path.dirname(path.join(p.dir, 'hooks', f)), { recursive: true });
      fs.writeFileSync(path.join(p.dir, 'hooks', f), '');
    }
    const files = (vars: Record<string, string>) =>
      fingerprintHook('gemini', {}, 'true', { projectDir: p.dir, vars })
        .files.map((f) => path.relative(fs.realpathSync(p.dir), f))
        .sort();
    assert.deepEqual(files({ BASH_ENV: 'hooks/pre.sh' }), ['hooks/pre.sh']);
    assert.deepEqual(files({ NODE_OPTIONS: '--max-old-space-size=100 --require hooks/req.cjs' }), ['hooks/req.cjs']);
    assert.deepEqual(files({ NODE_OPTIONS: '--import=./hooks/req.cjs' }), ['hooks/req.cjs']);
    assert.deepEqual(files({ PYTHONPATH: `hooks/lib:${p.dir}/nowhere` }), ['hooks/lib/sitecustomize.py']);
    assert.deepEqual(files({ LD_PRELOAD: 'hooks/x.so' }), ['hooks/x.so']);
    assert.deepEqual(files({ EVENTS: 'hooks/pre.sh' }), []);
  });
});
