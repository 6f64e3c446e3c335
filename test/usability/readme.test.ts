// Documentation claims that drift: the library page names every export, the command synopsis
// every command and flag, the agent page every interactive command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, runCli } from '../helpers.js';

const page = (name: string) => fs.readFileSync(path.join(ROOT, 'docs', name), 'utf8');

test('the library page names every value exported by hookline and hookline/sdk (and its Claude Code, Codex and Copilot CLI entries)', async () => {
  const lib = page('library.md');
  // As published: the built modules.
  for (const mod of ['index.js', 'sdk/index.js', 'sdk/claude.js', 'sdk/codex.js', 'sdk/copilot.js'].map((m) =>
    path.join(ROOT, 'dist', m),
  )) {
    const names = Object.keys(await import(mod));
    const missing = names.filter((n) => !new RegExp(`\\b${n}\\b`).test(lib));
    assert.deepEqual(missing, [], `${mod}: not in docs/library.md`);
  }
});

test("the command synopsis lists every command and every command's flags", async () => {
  const synopsis = /## Synopsis\n\n```\n([\s\S]*?)```/.exec(page('cli.md'))?.[1] ?? '';
  const help = (await runCli(['--help'])).stdout;
  const commands = [...help.matchAll(/^ {2}([a-z-]+)(?: \[options\]| <|\s)/gm)].map((m) => m[1]).filter((c) => c !== 'help');
  assert.ok(commands.length >= 9, help);
  for (const c of commands) {
    assert.match(synopsis, new RegExp(`\\b${c}\\b`), `command ${c}`);
    const flags = [...(await runCli([c, '--help'])).stdout.matchAll(/^\s+(?:-\w, )?(--[a-z-]+)/gm)]
      .map((m) => m[1])
      .filter((f) => f !== '--help');
    for (const f of flags) assert.ok(synopsis.includes(f), `${c} ${f} is not in the synopsis`);
  }
});

test('the agent page lists every interactive command', () => {
  const agent = page('agent.md');
  const src = fs.readFileSync(path.join(ROOT, 'src', 'agent', 'interactive.ts'), 'utf8');
  const commands = new Set([...src.matchAll(/line === '(\/[a-z]+)'|startsWith\('(\/[a-z]+)'\)/g)].map((m) => m[1] ?? m[2]));
  assert.ok(commands.size >= 5);
  for (const c of commands) assert.ok(agent.includes(`\`${c}`), `${c} is not in docs/agent.md`);
});
