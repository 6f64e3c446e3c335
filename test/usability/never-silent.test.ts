// Every way in says, once, which of a folder's hooks were held back and the command that trusts
// them: the library (on stderr by default, or through onNotice), the three framework adapters
// (through their notice) and mcp-proxy (on its stderr). A guard held back must never be silent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { HookEngine } from '../../src/engine/index.js';
import { createHooks } from '../../src/adapters/ai-sdk.js';
import { createAgentsHooks } from '../../src/adapters/openai-agents.js';
import { createLangChainHooks } from '../../src/adapters/langchain.js';
import { CLI, FIXTURES, ROOT, makeProject, trustProject } from '../helpers.js';

/** An untrusted project whose guard would leave `ran` behind if it ran. */
function guarded(command = 'touch ran') {
  const p = makeProject({ trusted: false, project: { hooks: { BeforeTool: [{ hooks: [{ type: 'command', name: 'guard', command }] }] } } });
  return { ...p, trust: `hookline trust ${JSON.stringify(p.dir)}` };
}
const shell = { tool_name: 'run_shell_command', tool_input: { command: 'rm -rf build' } };
const count = (lines: string[], s: string) => lines.filter((l) => l.includes(s)).length;

test('the library says on stderr, once, that the folder is not trusted and how to trust it', async () => {
  const p = guarded();
  const script = `import { HookEngine } from ${JSON.stringify(path.join(ROOT, 'dist', 'index.js'))};
const e = new HookEngine({ cwd: process.argv[1] });
for (let i = 0; i < 3; i++) await e.fire('BeforeTool', ${JSON.stringify(shell)});
e.close();`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, p.dir], { env: p.env });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise((r) => child.on('close', r));
  assert.equal(code, 0, stderr);
  const lines = stderr.trimEnd().split('\n');
  assert.equal(count(lines, 'is not a trusted folder'), 1, stderr);
  assert.ok(lines[0].startsWith('hookline: ') && lines[0].endsWith(p.trust), stderr);
  assert.equal(fs.existsSync(path.join(p.dir, 'ran')), false);
});

test('onNotice takes the notices instead of stderr; a hook changed after trust is said again, once', async () => {
  const p = guarded();
  const lines: string[] = [];
  const e = new HookEngine({ cwd: p.dir, env: p.env, onNotice: (l) => lines.push(l), configCheckIntervalMs: 0 });
  await e.fire('BeforeTool', shell);
  await e.fire('BeforeTool', shell);
  assert.deepEqual(lines.length, 1, lines.join('\n'));
  assert.ok(lines[0].endsWith(p.trust), lines[0]);

  trustProject(p.dir, p.home);
  await e.fire('BeforeTool', shell);
  assert.equal(lines.length, 1, 'nothing held, nothing said');
  assert.ok(fs.existsSync(path.join(p.dir, 'ran')), 'the trusted guard ran');

  const settings = path.join(p.dir, '.gemini', 'settings.json');
  fs.writeFileSync(settings, fs.readFileSync(settings, 'utf8').replace('touch ran', 'touch ran2'));
  await e.fire('BeforeTool', shell);
  await e.fire('BeforeTool', shell);
  assert.equal(lines.length, 2, lines.join('\n'));
  assert.match(lines[1], /held back until trusted \(run: hookline trust "[^"]+"\):\n {2}- guard \(BeforeTool, /);
  assert.equal(fs.existsSync(path.join(p.dir, 'ran2')), false);
  e.close();
});

for (const [name, create] of [
  ['hookline/ai-sdk', createHooks],
  ['hookline/openai-agents', createAgentsHooks],
  ['hookline/langchain', createLangChainHooks],
] as const) {
  test(`${name} says through its notice, once, which hooks were held back`, async () => {
    const p = guarded();
    const lines: string[] = [];
    const hooks = create({ cwd: p.dir, env: p.env, notice: (l: string) => lines.push(l) });
    await hooks.points.sessionStart({ source: 'startup' });
    await hooks.points.sessionStart({ source: 'startup' });
    assert.equal(count(lines, 'is not a trusted folder'), 1, lines.join('\n'));
    assert.equal(
      lines[0],
      `hookline: ${p.dir} is not a trusted folder: its 1 workspace hook(s) do not run. Review .gemini/settings.json, then run: ${p.trust}`,
    );
    hooks.points.close?.();
  });
}

test('mcp-proxy says on its stderr which hooks were held back, before any call', async () => {
  const p = guarded();
  const child = spawn(process.execPath, [CLI, 'mcp-proxy', '--', process.execPath, path.join(FIXTURES, 'mcp', 'server.mjs')], {
    cwd: p.dir,
    env: p.env,
  });
  let stderr = '';
  await new Promise<void>((resolve) => {
    child.stderr.on('data', (d) => {
      stderr += d;
      if (stderr.includes(p.trust)) resolve();
    });
    child.on('close', () => resolve());
  });
  child.kill();
  assert.match(stderr, /mcp-proxy: .* is not a trusted folder: its 1 workspace hook\(s\) do not run/);
  assert.ok(stderr.includes(p.trust), stderr);
});
