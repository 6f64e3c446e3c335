import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runCli, tmpFile } from '../helpers.js';
import { CONVERTIBLE, convertConfig, parseConfigText } from '../../src/dialects/convert/index.js';

/** Hooks every system has a place for: before and after a tool, on named tools or all, timeouts in whole seconds. */
const GEMINI = JSON.stringify({
  hooks: {
    BeforeTool: [
      { matcher: 'run_shell_command|write_file', hooks: [{ type: 'command', command: './hooks/guard.sh', timeout: 30000 }] },
      { hooks: [{ type: 'command', command: 'node hooks/audit.mjs' }] },
    ],
    AfterTool: [{ matcher: 'read_file', hooks: [{ type: 'command', command: 'python3 hooks/after.py', timeout: 5000 }] }],
  },
});

const UNCHANGED = (from: string) =>
  `the hook programs are unchanged: they still read ${from}'s input and answer in ${from}'s output format`;

describe('convert', () => {
  test('round-trips through every other system, and drops nothing on the way', () => {
    for (const a of CONVERTIBLE) {
      const start = convertConfig(GEMINI, 'gemini', a).text;
      for (const b of CONVERTIBLE) {
        if (a === b) continue;
        const there = convertConfig(start, a, b);
        assert.deepEqual(there.notes, [UNCHANGED(a)], `${a} → ${b}`);
        const back = convertConfig(there.text, b, a);
        assert.deepEqual(back.notes, [UNCHANGED(b)], `${b} → ${a}`);
        assert.deepEqual(parseConfigText(a, back.text), parseConfigText(a, start), `${a} → ${b} → ${a}`);
      }
    }
  });

  test('maps events, tool names, timeouts and matchers into each system', () => {
    const json = (to: string) => parseConfigText(to, convertConfig(GEMINI, 'gemini', to).text) as { hooks: Record<string, unknown[]> };
    assert.deepEqual(json('claude').hooks.PreToolUse[0], {
      matcher: 'Bash|Write',
      hooks: [{ type: 'command', command: './hooks/guard.sh', timeout: 30 }],
    });
    assert.deepEqual(json('agy').hooks.PostToolUse[0], {
      matcher: 'view_file',
      hooks: [{ type: 'command', command: 'python3 hooks/after.py', timeout: 5 }],
    });
    assert.deepEqual(json('mm').hooks.preToolCall[0], {
      command: './hooks/guard.sh',
      timeout: '30s',
      matcher: '^(run_shell_command|write_file)$',
    });
    assert.deepEqual(json('spatialagent').hooks.PreToolUse[1], { type: 'bash', command: 'node hooks/audit.mjs' });
  });

  test('reads Gemini settings as Gemini CLI reads them: one definition object, a timeout as text or null, a "plugin" hook', () => {
    const odd = JSON.stringify({
      hooks: {
        BeforeTool: {
          matcher: 'run_shell_command',
          hooks: [
            { type: 'plugin', command: './hooks/guard.sh', timeout: '30000' },
            { type: 'command', command: 'node hooks/audit.mjs', timeout: null },
          ],
        },
      },
    });
    const plain = JSON.stringify({
      hooks: {
        BeforeTool: [
          {
            matcher: 'run_shell_command',
            hooks: [
              { type: 'command', command: './hooks/guard.sh', timeout: 30000 },
              { type: 'command', command: 'node hooks/audit.mjs' },
            ],
          },
        ],
      },
    });
    const got = convertConfig(odd, 'gemini', 'claude');
    assert.deepEqual(got.notes, [UNCHANGED('gemini')]);
    assert.equal(got.text, convertConfig(plain, 'gemini', 'claude').text);
  });

  test('names each field it drops or approximates', () => {
    const claude = JSON.stringify({
      env: { A: '1' },
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/g.sh', timeout: 2 }] }],
        SubagentStop: [{ hooks: [{ type: 'command', command: 'x' }] }],
        Stop: [{ hooks: [{ type: 'prompt', prompt: 'done?' }] }],
        SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: 'echo hi' }] }],
      },
    });
    const r = convertConfig(claude, 'claude', 'mm');
    assert.deepEqual(r.notes, [
      'env: not hook configuration; dropped',
      'hooks.Stop[0].hooks[0]: a prompt hook; dropped (only command hooks convert)',
      UNCHANGED('claude'),
      'hooks.PreToolUse[0].hooks[0].command: $CLAUDE_PROJECT_DIR is not set by mm; written as "." (its hooks run in the project folder)',
      "hooks.SubagentStop[0].hooks[0]: dropped: mm has no event at the point of claude's SubagentStop",
      "hooks.SessionStart[0].hooks[0]: dropped: mm has no event at the point of claude's SessionStart",
    ]);
    const g = convertConfig(claude, 'claude', 'gemini');
    // SessionStart's matcher is on the same trigger field in both: kept.
    assert.match(g.text, /"matcher": "startup"/);
    assert.ok(!g.notes.some((n) => n.includes('SessionStart')), g.notes.join('\n'));
    const ms = convertConfig(
      JSON.stringify({ hooks: { BeforeTool: [{ hooks: [{ type: 'command', command: 'x', timeout: 1500, name: 'n' }] }] } }),
      'gemini',
      'claude',
    );
    assert.deepEqual(ms.notes.slice(1), [
      'hooks.BeforeTool[0].hooks[0].timeout: 1500 ms rounded up to 2 s',
      'hooks.BeforeTool[0].hooks[0].name: claude hooks have no name; dropped',
    ]);
  });

  test('hookline convert writes the file atomically with -o and prints the notes on stderr', async () => {
    const src = tmpFile('settings.json');
    fs.writeFileSync(src, GEMINI.replace('"hooks"', '"ui": {}, "hooks"'));
    const out = path.join(path.dirname(src), 'agent.yaml');
    const r = await runCli(['convert', '--from', 'gemini', '--to', 'mm', src, '-o', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    assert.deepEqual(r.stderr.trimEnd().split('\n'), [
      `hookline: ${src}: ui: not hook configuration; dropped`,
      `hookline: ${src}: ${UNCHANGED('gemini')}`,
    ]);
    assert.match(fs.readFileSync(out, 'utf8'), /^hooks:\n {2}preToolCall:\n {4}- command: \.\/hooks\/guard\.sh\n/);
    const bad = await runCli(['convert', '--from', 'gemini', '--to', 'cursor', src]);
    assert.equal(bad.code, 1);
    assert.equal(
      bad.stderr,
      'hookline: --to: unknown dialect "cursor"; expected one of gemini, claude, codex, copilot, mm, spatialagent, agy\n',
    );
  });
});
