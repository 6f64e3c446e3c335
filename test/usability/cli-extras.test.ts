// Completion scripts, --json where scripts need it, and the environment listed in --help.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { makeProject, runCli, ROOT } from '../helpers.js';

const COMMANDS = ['fire', 'list', 'validate', 'enable', 'disable', 'enable-all', 'disable-all', 'trust', 'agent', 'completion'];

test("completion bash: completes commands and each command's options", async () => {
  const r = await runCli(['completion', 'bash']);
  assert.equal(r.code, 0, r.stderr);
  const ask = (words: string[]) =>
    spawnSync(
      'bash',
      [
        '-c',
        `${r.stdout}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _hookline; echo "\${COMPREPLY[@]}"`,
      ],
      { encoding: 'utf8' },
    );
  const first = ask(['hookline', '']);
  assert.equal(first.status, 0, first.stderr);
  for (const c of COMMANDS) assert.ok(first.stdout.split(/\s+/).includes(c), `${c} in ${first.stdout}`);
  assert.equal(ask(['hookline', 'fi']).stdout.trim(), 'fire');
  assert.equal(ask(['hookline', 'fire', '--dia']).stdout.trim(), '--dialect');
  assert.match(ask(['hookline', 'agent', '--max']).stdout, /--max-steps/);
});

test('completion zsh and fish name every command; an unknown shell is a one-line error', async () => {
  for (const shell of ['zsh', 'fish']) {
    const r = await runCli(['completion', shell]);
    assert.equal(r.code, 0);
    for (const c of COMMANDS) assert.match(r.stdout, new RegExp(`\\b${c}\\b`));
    assert.match(r.stdout, /--compress-threshold|compress-threshold/);
  }
  const bad = await runCli(['completion', 'tcsh']);
  assert.equal(bad.code, 1);
  assert.equal(bad.stderr, 'hookline: completion: unknown shell "tcsh" — give one of bash, zsh, fish\n');
});

test('trust --check --json: the folder, its trust and the untrusted hooks; exit 1 while any is', async () => {
  const p = makeProject({
    trusted: false,
    project: { hooks: { BeforeTool: [{ matcher: 'glob', hooks: [{ type: 'command', name: 'g', command: 'true' }] }] } },
  });
  const r = await runCli(['trust', p.dir, '--check', '--json'], { env: p.env });
  assert.equal(r.code, 1);
  assert.deepEqual(r.json(), {
    folder: p.dir,
    trusted: false,
    untrusted: [
      {
        name: 'g',
        event: 'BeforeTool',
        matcher: 'glob',
        source: 'gemini',
        file: path.join(p.dir, '.gemini', 'settings.json'),
        command: 'true',
        details: [],
        reads: [],
        // Never trusted here: there is no reviewed version to compare with.
        change: null,
      },
    ],
    // Hooks their own agent's records hold back (Codex): none here.
    unrecorded: [],
  });
  await runCli(['trust', p.dir], { env: p.env });
  const ok = await runCli(['trust', p.dir, '--check', '--json'], { env: p.env });
  assert.equal(ok.code, 0, ok.stderr);
  assert.deepEqual(ok.json(), { folder: p.dir, trusted: true, untrusted: [], unrecorded: [] });
});

test('--help lists every environment variable the code reads', async () => {
  const help = (await runCli(['--help'])).stdout;
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.ts'))
        for (const m of fs.readFileSync(p, 'utf8').matchAll(/\benv\.([A-Z][A-Z0-9_]+)\b|'([A-Z][A-Z0-9_]*_API_KEY)'/g))
          names.add(m[1] ?? m[2]);
    }
  };
  walk(path.join(ROOT, 'src'));
  assert.ok(names.size > 10);
  for (const n of names) assert.match(help, new RegExp(`\\b${n}\\b`), `${n} is not in --help`);
});
