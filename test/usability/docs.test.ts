// The README starts small and the reference under docs/ holds together: a length target, the two
// set-up commands, every page reachable, every link and anchor alive, contents lists that match
// their pages, and the five-minute guide run as written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, makeProject, ROOT } from '../helpers.js';

/** Ten minutes of reading at 150 words a minute, code blocks included. */
const README_WORDS = 1500;

const read = (rel: string) => fs.readFileSync(path.join(ROOT, rel), 'utf8');
const readme = read('README.md');
const docs = fs
  .readdirSync(path.join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.md'))
  .map((f) => path.join('docs', f));

const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '');
/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of prose(text).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = m[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}
const section = (text: string, title: string) => {
  const start = text.indexOf(`\n## ${title}\n`);
  assert.ok(start >= 0, title);
  const end = text.indexOf('\n## ', start + 4);
  return text.slice(start, end < 0 ? undefined : end);
};

test(`the README is at most ${README_WORDS} words`, () => {
  const words = readme.split(/\s+/).filter(Boolean).length;
  assert.ok(words <= README_WORDS, `README.md has ${words} words; move reference text to docs/`);
});

test('the Quick start keeps the two set-up commands', () => {
  assert.match(section(readme, 'Quick start'), /```sh\nnpm ci && npm run demo\nnpm ci && npm test\n```/);
});

test('every docs page is linked from the README or the docs index', () => {
  const linked = new Set<string>();
  for (const from of ['README.md', 'docs/README.md']) {
    for (const m of read(from).matchAll(/\]\(([^)#\s]+\.md)/g)) linked.add(path.normalize(path.join(path.dirname(from), m[1])));
  }
  assert.ok(linked.has('docs/README.md'), 'the README links the docs index');
  assert.deepEqual(
    docs.filter((d) => d !== 'docs/README.md' && !linked.has(d)),
    [],
  );
});

test('every relative link and anchor in the README and docs resolves', () => {
  const broken: string[] = [];
  for (const from of ['README.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md', ...docs]) {
    for (const m of prose(read(from)).matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1];
      if (/^[a-z]+:/.test(target)) continue;
      const [file, anchor] = target.split('#');
      const rel = file ? path.normalize(path.join(path.dirname(from), file)) : from;
      if (!fs.existsSync(path.join(ROOT, rel))) broken.push(`${from}: ${target} (no file)`);
      else if (anchor && !anchors(read(rel)).has(anchor)) broken.push(`${from}: ${target} (no heading)`);
    }
  }
  assert.deepEqual(broken, []);
});

test('a docs page of three or more sections opens with a contents list of them', () => {
  let checked = 0;
  for (const d of docs) {
    const text = prose(read(d));
    const heads = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    if (heads.length < 3) continue;
    checked++;
    const list = /\nContents:\n\n((?:- .*\n)+)/.exec(text)?.[1] ?? '';
    const listed = [...list.matchAll(/^- \[(.+)\]\(#/gm)].map((m) => m[1]);
    assert.deepEqual(listed, heads, `${d}: its contents list`);
  }
  assert.ok(checked >= 8, `${checked} pages checked`);
});

function bash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

test('the five-minute guard works as the README writes it', async () => {
  const guide = section(readme, 'A first guard in five minutes');
  const blocks = [...guide.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  assert.equal(blocks.length, 2);
  // The install line is the packed-tarball test's; here `hookline` is the built one.
  const [install, ...steps] = blocks[0].trimEnd().split('\n');
  assert.match(install, /^npm pack && npm install -g \.\/hookline-\*\.tgz$/);
  const p = makeProject({ trusted: false });
  const bin = path.join(path.dirname(p.dir), 'bin');
  fs.mkdirSync(bin);
  fs.writeFileSync(path.join(bin, 'hookline'), `#!/bin/sh\nexec '${process.execPath}' '${CLI}' "$@"\n`, { mode: 0o755 });
  const env = { ...p.env, PATH: `${bin}:${process.env.PATH}`, NO_COLOR: '1' };

  const first = await bash(steps.join('\n'), p.dir, env);
  assert.equal(first.code, 0, first.stderr);
  for (const line of ['✓ guard: lets ls through', '✓ guard: denies rm -rf', '2 passed, 0 failed'])
    assert.ok(first.stdout.includes(line), line);
  const fired = JSON.parse(first.stdout.slice(first.stdout.lastIndexOf('\n{\n') + 1));
  assert.equal(fired.output.decision, 'deny');
  assert.ok(guide.includes(`"reason": "${fired.output.reason}"`), fired.output.reason);

  const agent = await bash(blocks[1], p.dir, env);
  assert.equal(agent.code, 0, agent.stderr);
  const shown = /It prints `(🪝[^`]+)`/.exec(guide)?.[1];
  assert.ok(shown && agent.stderr.includes(shown), agent.stderr);
  assert.equal(fs.existsSync(path.join(p.dir, 'build')), false);
});
