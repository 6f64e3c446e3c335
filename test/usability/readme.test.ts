// README claims that drift: the library section names every export, the command synopsis every
// command and flag, the agent section every interactive command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, runCli } from '../helpers.js';

const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const section = (title: string) => {
  const start = readme.indexOf(`## ${title}`);
  assert.ok(start >= 0, title);
  const end = readme.indexOf('\n## ', start + 3);
  return readme.slice(start, end < 0 ? undefined : end);
};

test('the library section names every value exported by hookline and hookline/sdk', async () => {
  const lib = section('The library');
  // As published: the built modules.
  for (const mod of [path.join(ROOT, 'dist', 'index.js'), path.join(ROOT, 'dist', 'sdk', 'index.js')]) {
    const names = Object.keys(await import(mod));
    const missing = names.filter((n) => !new RegExp(`\\b${n}\\b`).test(lib));
    assert.deepEqual(missing, [], `${mod}: not in the README's library section`);
  }
});

test("the command synopsis lists every command and every command's flags", async () => {
  const synopsis = /## The `hookline` command\n\n```\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
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

test('the agent section lists every interactive command', () => {
  const agent = section('The reference agent');
  const src = fs.readFileSync(path.join(ROOT, 'src', 'agent', 'interactive.ts'), 'utf8');
  const commands = new Set([...src.matchAll(/line === '(\/[a-z]+)'|startsWith\('(\/[a-z]+)'\)/g)].map((m) => m[1] ?? m[2]));
  assert.ok(commands.size >= 5);
  for (const c of commands) assert.ok(agent.includes(`\`${c}`), `${c} is not in the README's agent section`);
});
