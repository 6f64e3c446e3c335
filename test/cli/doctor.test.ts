import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HOOKS, makeProject, runCli } from '../helpers.js';
import { AT_RUN_TIME, checkCommand } from '../../src/run/which.js';
import { MAPS, mapEvent, mapTool } from '../../src/dialects/convert/maps.js';

const guard = `bash '${HOOKS}/ht-guard.sh'`;

describe('hookline doctor', () => {
  test('says for each hook whether it would run and why not; exit 1 when one would silently not', async () => {
    const p = makeProject({
      project: {
        hooksConfig: { disabled: ['off'] },
        hooks: {
          BeforeTool: [
            { matcher: 'run_shell_command', hooks: [{ type: 'command', name: 'guard', command: guard }] },
            { matcher: 'write_file', hooks: [{ type: 'command', name: 'writer', command: guard, timeout: 5 }] },
          ],
          AfterAgent: [
            {
              hooks: [
                { type: 'command', name: 'off', command: guard },
                { type: 'command', name: 'ghost', command: 'no-such-program-here --x' },
                { type: 'command', name: 'vars', command: `bash '${HOOKS}/ht-guard.sh' "$NOT_SET_ANYWHERE"` },
              ],
            },
          ],
        },
      },
    });
    // Written after the project was trusted: held back until `hookline trust`.
    fs.mkdirSync(path.join(p.dir, '.claude'));
    fs.writeFileSync(
      path.join(p.dir, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'python3 ./missing.py' }] }] } }),
    );
    const env = { ...p.env, HOME: p.home };
    delete env.NOT_SET_ANYWHERE;

    const r = await runCli(['doctor', '--cwd', p.dir], { env });
    assert.equal(r.code, 1, r.stderr);
    const out = r.stdout;
    assert.match(out, /^✓ gemini project BeforeTool run_shell_command guard \(\.gemini\/settings\.json\)$/m);
    assert.match(
      out,
      /^✗ gemini project BeforeTool write_file writer .*\n {4}timeout: 5\n {4}"timeout" is in milliseconds: 5 ms is probably meant as 5 seconds — write 5000$/m,
    );
    assert.match(
      out,
      /^○ gemini project AfterAgent off .*\n {4}disabled by name "off" in .*\.gemini\/settings\.json \(hooksConfig\.disabled\)/m,
    );
    assert.match(out, /^✗ gemini project AfterAgent ghost .*\n {4}no-such-program-here: command not found on PATH$/m);
    assert.match(out, /^✗ gemini project AfterAgent vars .*\n {4}variable \$NOT_SET_ANYWHERE will not expand/m);
    assert.match(
      out,
      /^✗ claude workspace PreToolUse Bash python3 \.\/missing\.py .*\n {4}cannot be trusted: .*\n {4}\.\/missing\.py: script not found/m,
    );
    assert.match(out, /^✓ interpreter bash \(.*\) starts$/m);
    assert.match(out, /^6 hook\(s\): 1 would run, 4 would not, 1 disabled, 0 not for this event$/m);

    // For one point and tool, in any system's names: only what would run there counts.
    const j = await runCli(['doctor', '--cwd', p.dir, '--event', 'PreToolUse', '--tool', 'Bash', '--json'], { env });
    const report = j.json();
    const state = Object.fromEntries(report.hooks.map((h: { name: string; state: string }) => [h.name, h.state]));
    assert.deepEqual(state, {
      guard: 'runs',
      writer: 'elsewhere',
      off: 'elsewhere',
      ghost: 'elsewhere',
      vars: 'elsewhere',
      'python3 ./missing.py': 'broken',
    });
    const writer = report.hooks.find((h: { name: string }) => h.name === 'writer');
    assert.equal(writer.why[0], 'matcher "write_file" does not match Bash / run_shell_command; it matches write_file');
    assert.equal(j.code, 1);
    assert.equal(report.ok, false);
  });

  test('a hook that asks for "prewarm": true and cannot have a waiting interpreter is told why, and still runs', async () => {
    const js = path.join(os.tmpdir(), `hookline-doctor-warm-${process.pid}.cjs`);
    fs.writeFileSync(js, "process.stdout.write('{}');\n");
    const p = makeProject({
      user: {
        hooks: {
          BeforeTool: [
            {
              hooks: [
                { type: 'command', name: 'piped', command: `node ${js} | cat`, prewarm: true },
                { type: 'command', name: 'plain', command: `node ${js}`, prewarm: true },
                { type: 'command', name: 'not-asked', command: 'echo {}' },
              ],
            },
          ],
        },
      },
    });
    const r = await runCli(['doctor'], { cwd: p.dir, env: p.env });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /✓ gemini user BeforeTool piped[^\n]*\n(?: {4}[^\n]*\n)*? {4}asks for "prewarm": true but starts its interpreter at the event \(it runs as usual\): not a simple command of literal words \("\|" outside quotes\)/,
    );
    assert.equal((r.stdout.match(/asks for "prewarm"/g) ?? []).length, 1, 'only the hook that cannot have one');
    const withPreload = await runCli(['doctor'], { cwd: p.dir, env: { ...p.env, NODE_OPTIONS: `--require ${js}` } });
    assert.match(withPreload.stdout, /plain[^\n]*\n(?: {4}[^\n]*\n)*? {4}asks for "prewarm": true [^\n]*NODE_OPTIONS preloads code/);
    fs.rmSync(js, { force: true });
  });

  test('an event no hook system fires is a usage error', async () => {
    const p = makeProject();
    const r = await runCli(['doctor', '--cwd', p.dir, '--event', 'BeforeTools'], { env: p.env });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^hookline: --event: unknown event "BeforeTools": no hook system/);
  });
});

describe('checkCommand', () => {
  const cwd = path.dirname(HOOKS);
  const vars = { PATH: process.env.PATH, DIR: HOOKS, LATER: AT_RUN_TIME };
  test('finds the program, the script of an interpreter, and variables that will not expand', () => {
    assert.deepEqual(checkCommand(`bash "$DIR/ht-guard.sh" && nothing-here`, { cwd, vars }).problems, []);
    assert.deepEqual(checkCommand('node hooks/absent.mjs', { cwd, vars }).problems, [
      'hooks/absent.mjs: script not found (from ' + cwd + ')',
    ]);
    assert.deepEqual(checkCommand('X=1 ./hooks/absent.sh', { cwd, vars }).problems, ['./hooks/absent.sh: no such file (from ' + cwd + ')']);
    assert.deepEqual(checkCommand('python3 -c "print(1)"', { cwd, vars }).problems, []);
    assert.deepEqual(checkCommand('"$LATER/x.sh"', { cwd, vars }).problems, []);
    assert.deepEqual(checkCommand('echo $NOPE', { cwd, vars }).problems, [
      "variable $NOPE will not expand: it is not set in the hook's environment",
    ]);
    assert.equal(checkCommand('node -e 0', { cwd, vars }).interpreter?.name, 'node');
  });

  test("an option's value is not taken for the script", () => {
    assert.deepEqual(checkCommand('node -r dotenv/config hooks/absent.mjs', { cwd, vars }).problems, [
      'hooks/absent.mjs: script not found (from ' + cwd + ')',
    ]);
    assert.deepEqual(checkCommand(`python3 -W ignore "$DIR/ht-guard.sh"`, { cwd, vars }).problems, []);
    // deno's subcommands: `run` comes before the script, `eval` before inline code.
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-deno-'));
    fs.writeFileSync(path.join(bin, 'deno'), '#!/bin/sh\n', { mode: 0o755 });
    const withDeno = { ...vars, PATH: `${bin}:${process.env.PATH}` };
    assert.deepEqual(checkCommand('deno run hooks/absent.ts', { cwd, vars: withDeno }).problems, [
      'hooks/absent.ts: script not found (from ' + cwd + ')',
    ]);
    assert.deepEqual(checkCommand(`deno eval "console.log(1)"`, { cwd, vars: withDeno }).problems, []);
    fs.rmSync(bin, { recursive: true, force: true });
  });
});

describe('dialect maps', () => {
  test('events and tools between systems go through the agent point', () => {
    assert.equal(mapEvent('gemini', 'claude', 'BeforeTool'), 'PreToolUse');
    assert.equal(mapEvent('claude', 'mm', 'Stop'), 'postGeneration');
    assert.equal(mapEvent('spatialagent', 'agy', 'PrePlan'), 'PreInvocation');
    assert.equal(mapEvent('claude', 'spatialagent', 'SessionStart'), undefined);
    assert.equal(mapTool('claude', 'agy', 'Bash'), 'run_command');
    assert.equal(mapTool('agy', 'gemini', 'view_file'), 'read_file');
    // Claude Code's subagent events have no point in the reference agent's loop.
    assert.deepEqual(
      ['PostToolUseFailure', 'SubagentStop'].map((e) => MAPS.claude.fired.includes(e)),
      [true, false],
    );
  });
});
