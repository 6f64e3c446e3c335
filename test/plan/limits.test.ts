// Matchers run in linear time in every dialect, and timeouts never overflow Node's timer.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { compileMatcher } from '../../src/plan/matcher.js';
import { compileClaudeMatcher } from '../../src/dialects/claude/matcher.js';
import { parseClaudeSettings } from '../../src/dialects/claude/config.js';
import { parseSaConfig } from '../../src/dialects/spatialagent/config.js';
import { saMatches } from '../../src/dialects/spatialagent/matcher.js';
import { parseMmConfig } from '../../src/dialects/mm/config.js';
import { validateLayer } from '../../src/config/validate.js';
import { boundedTimeoutMs, MAX_TIMEOUT_MS } from '../../src/config/timeout.js';
import { runCommand } from '../../src/run/command.js';
import { runFunction } from '../../src/run/function.js';
import { PersistentProcess } from '../../src/run/persistent.js';
import { hook } from '../helpers.js';

const CATASTROPHIC = ['^(((\\w+)+)+)+x$', '(a+)+$', '(a|aa)+$', '(\\w+\\s?)+$', '^(([a-z])+.)+[A-Z]([a-z])+$'];
const LONG = 'a'.repeat(5000) + '!';

describe('matchers are linear', () => {
  test('Gemini: catastrophic patterns answer at once, with JavaScript semantics (unanchored, case-sensitive)', () => {
    for (const p of CATASTROPHIC) {
      const m = compileMatcher('BeforeTool', p);
      assert.equal(m(LONG), false, p);
    }
    assert.equal(compileMatcher('BeforeTool', CATASTROPHIC[0])('a'.repeat(30) + 'x'), true);
    assert.equal(compileMatcher('BeforeTool', 'Shell')('run_shell_command'), false, 'case-sensitive');
    assert.equal(compileMatcher('BeforeTool', 'shell.*mand')('run_shell_command'), true, 'unanchored');
    assert.equal(compileMatcher('BeforeTool', '^mcp__\\w+__write$')('mcp__fs__write'), true);
    assert.equal(compileMatcher('BeforeTool', '\\u0072ead')('read_file'), true, 'JavaScript \\u escapes');
  });

  test('Gemini: a pattern RE2 cannot run is compared as an exact name, and validate reports it', () => {
    for (const p of ['(?=read)read_file', '(a)\\1', '(?<!x)read']) {
      const m = compileMatcher('BeforeTool', p);
      assert.equal(m('read_file'), false, p);
      assert.equal(m(p), true, p);
      const r = validateLayer(
        { hooks: { BeforeTool: [{ matcher: p, hooks: [{ type: 'command', command: 'true' }] }] } },
        'settings.json',
        'user',
      );
      assert.equal(r.entries.length, 1, 'the hook is kept');
      assert.ok(
        r.problems.some(
          (x) =>
            x.severity === 'warning' &&
            x.path === 'hooks.BeforeTool[0].matcher' &&
            /not supported by the linear-time engine.*exact tool name/.test(x.message),
        ),
        JSON.stringify(r.problems),
      );
    }
  });

  test('Claude Code: catastrophic patterns answer at once; unsupported ones are exact names, reported', () => {
    for (const p of CATASTROPHIC) assert.equal(compileClaudeMatcher(p).test(LONG), false, p);
    assert.equal(compileClaudeMatcher('mcp__.*__write').test('mcp__fs__write'), true);
    const look = compileClaudeMatcher('(?!Bash).*');
    assert.equal(look.kind, 'exact');
    assert.equal(look.reason, 'unsupported');
    const s = parseClaudeSettings(
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: '(a)\\1', hooks: [{ type: 'command', command: 'true' }] }] } }),
      '/p/.claude/settings.json',
      'project',
    );
    assert.equal(s.hooks.length, 1);
    assert.ok(s.problems.some((x) => /not supported by the linear-time engine/.test(x.message)));
  });

  test('SpatialAgent: object matchers are RE2 and answer at once', () => {
    const c = parseSaConfig(
      JSON.stringify({ hooks: { PreAct: [{ type: 'bash', command: 'true', matcher: { code_type: '(a+)+$' } }] } }),
      'sa.json',
    );
    assert.deepEqual(c.problems, []);
    assert.equal(saMatches(c.hooks.PreAct[0].matcher, { CODE_TYPE: LONG }), false);
    assert.equal(saMatches(c.hooks.PreAct[0].matcher, { CODE_TYPE: 'aaa' }), true);
  });
});

describe('timeouts are bounded', () => {
  const OVER = 2 ** 31;

  test('the runners clamp any value into what a timer can hold', () => {
    assert.equal(boundedTimeoutMs(OVER, 1), MAX_TIMEOUT_MS);
    assert.equal(boundedTimeoutMs(Infinity, 1), MAX_TIMEOUT_MS);
    assert.equal(boundedTimeoutMs(undefined, 60000), 60000);
    assert.equal(boundedTimeoutMs(NaN, 60000), 60000);
    assert.equal(boundedTimeoutMs(0, 60000), 1);
  });

  test('a command, a function and a persistent hook with a huge timeout are not killed at once', async () => {
    const r = await runCommand({
      command: 'sleep 0.3; echo done',
      cwd: process.cwd(),
      env: { PATH: process.env.PATH ?? '' },
      stdin: '',
      timeoutMs: OVER * 4,
    });
    assert.equal(r.timedOut, undefined, r.error);
    assert.equal(r.stdout.trim(), 'done');
    const f = await runFunction(
      {
        type: 'runtime',
        name: 'f',
        timeout: OVER,
        action: async () => {
          await new Promise((res) => setTimeout(res, 50));
          return { systemMessage: 'ok' };
        },
      },
      {} as never,
    );
    assert.equal(f.success, true, f.error);
    const p = new PersistentProcess({
      command: `node ${hook('pers-guard.mjs')}`,
      cwd: process.cwd(),
      env: { PATH: process.env.PATH ?? '' },
    });
    try {
      const pr = await p.request({ tool_input: { command: 'slow' } }, OVER);
      assert.equal(pr.timedOut, undefined, pr.error);
    } finally {
      p.close();
    }
  });

  test('Gemini settings: above the limit is clamped with a warning naming the path and the limit', () => {
    const r = validateLayer(
      { hooks: { BeforeTool: [{ hooks: [{ type: 'command', command: 'true', timeout: OVER }] }] } },
      '/u/settings.json',
      'user',
    );
    assert.equal(r.entries[0].hook.type === 'command' && r.entries[0].hook.timeout, MAX_TIMEOUT_MS);
    const p = r.problems.find((x) => x.path === 'hooks.BeforeTool[0].hooks[0].timeout');
    assert.ok(p && p.file === '/u/settings.json' && /above the limit of 2147483647 ms/.test(p.message), JSON.stringify(r.problems));
  });

  test('Claude Code seconds: clamped with a warning', () => {
    const s = parseClaudeSettings(
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true', timeout: 3e6 }] }] } }),
      '/p/.claude/settings.json',
      'project',
    );
    assert.equal(s.hooks[0].timeoutSeconds * 1000, MAX_TIMEOUT_MS);
    assert.ok(s.problems.some((x) => x.path === 'hooks.Stop[0].hooks[0].timeout' && /above the limit of 2147483647 ms/.test(x.message)));
  });

  test('SpatialAgent seconds: clamped with a warning', () => {
    const c = parseSaConfig(JSON.stringify({ hooks: { PreAct: [{ type: 'bash', command: 'true', timeout: 1e9 }] } }), '/p/sa.json');
    assert.equal(c.hooks.PreAct[0].timeoutSeconds * 1000, MAX_TIMEOUT_MS);
    assert.ok(
      c.problems.some((x) => x.file === '/p/sa.json' && /timeout/.test(x.path) && /above the limit of 2147483647 ms/.test(x.message)),
    );
  });

  test('mm Go durations: refused, as mm refuses any bad configuration, naming the hook and the limit', () => {
    const c = parseMmConfig('hooks:\n  preToolCall:\n    - command: "true"\n      timeout: 720h\n', '/p/agent.yaml');
    assert.ok(
      c.errors.some(
        (e) =>
          e.file === '/p/agent.yaml' &&
          /hooks\.preToolCall\[0\]: timeout 720h is above Hookline's limit of 596h31m23\.647s/.test(e.message),
      ),
      JSON.stringify(c.errors),
    );
    const ok = parseMmConfig('hooks:\n  preToolCall:\n    - command: "true"\n      timeout: 596h\n', '/p/agent.yaml');
    assert.deepEqual(ok.errors, []);
  });
});
