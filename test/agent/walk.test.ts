import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compileGlob } from '../../src/agent/tools/pattern.js';
import { IgnoreRules } from '../../src/agent/tools/ignore.js';
import { walkFiles, type WalkStats } from '../../src/agent/tools/walk.js';

const bases: string[] = [];
after(() => {
  for (const b of bases) fs.rmSync(b, { recursive: true, force: true });
});

/** A real workspace folder holding `files` (relative path → content). */
function tree(files: Record<string, string>): string {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-walk-')));
  bases.push(base);
  const dir = path.join(base, 'work');
  fs.mkdirSync(dir);
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
  return dir;
}

async function walk(
  root: string,
  extra: { maxEntries?: number; signal?: AbortSignal } = {},
): Promise<{ subs: string[]; stats: WalkStats }> {
  const stats: WalkStats = { ignored: 0, truncated: false };
  const subs: string[] = [];
  for await (const e of walkFiles({ root, start: root, ...extra }, stats)) subs.push(e.sub);
  return { subs, stats };
}

describe('compileGlob', () => {
  test('parentheses, "+" and "|" are plain characters', () => {
    assert.equal(compileGlob('$(x)*')('$(x)y'), true);
    assert.equal(compileGlob('$(x)*')('$xy'), false);
    assert.equal(compileGlob('c++.md')('c++.md'), true);
    assert.equal(compileGlob('c++.md')('c+++.md'), false);
    assert.equal(compileGlob('(a|b)')('(a|b)'), true);
    assert.equal(compileGlob('(a|b)')('a'), false);
  });

  test('"dir/**" is what is inside dir, at any depth', () => {
    const m = compileGlob('**/src/**');
    assert.deepEqual(['src/a', 'x/src/a/b', 'src', 'x/src', 'srcs/a'].map(m), [true, true, false, false, false]);
    assert.equal(compileGlob('**')('a/b'), true);
  });

  test('case folds only when asked; dotfiles match "*"', () => {
    assert.equal(compileGlob('*.TS')('a.ts'), false);
    assert.equal(compileGlob('*.TS', { nocase: true })('a.ts'), true);
    assert.equal(compileGlob('**/*.env')('x/.env'), true);
  });
});

describe('IgnoreRules', () => {
  test('a deeper .gitignore overrides the one above; folder-only rules skip files', () => {
    const dir = tree({ '.gitignore': '*.log\nbuild/\n', 'sub/.gitignore': '!keep.log\n' });
    const rules = IgnoreRules.empty().withFile(path.join(dir, '.gitignore'), '').withFile(path.join(dir, 'sub/.gitignore'), 'sub');
    assert.equal(rules.ignored('a.log', false), true);
    assert.equal(rules.ignored('sub/x.log', false), true);
    assert.equal(rules.ignored('sub/keep.log', false), false);
    assert.equal(rules.ignored('build', true), true);
    assert.equal(rules.ignored('build', false), false, 'a file named build is not a folder');
    assert.equal(rules.ignored('sub', true), false);
  });

  test('a missing or comment-only file adds no rules', () => {
    const dir = tree({ '.gitignore': '# nothing\n\n' });
    const empty = IgnoreRules.empty();
    assert.equal(empty.withFile(path.join(dir, '.gitignore'), ''), empty);
    assert.equal(empty.withFile(path.join(dir, 'absent'), ''), empty);
  });
});

describe('walkFiles', () => {
  test("depth first in name order, a folder's files before its subfolders; skipped folders stay unwalked", async () => {
    const dir = tree({ 'b.txt': '', 'a/z.txt': '', 'a/b/c.txt': '', 'c.txt': '', 'node_modules/m.js': '', '.git/HEAD': '' });
    const { subs, stats } = await walk(dir);
    assert.deepEqual(subs, ['b.txt', 'c.txt', 'a/z.txt', 'a/b/c.txt']);
    assert.deepEqual(stats, { ignored: 0, truncated: false });
  });

  test('.gitignore files apply in a git work tree, counted as ignored', async () => {
    const dir = tree({
      '.git/HEAD': '',
      '.gitignore': 'gen/\n*.log\n',
      'gen/x.ts': '',
      'a.log': '',
      'sub/.gitignore': 'local.ts\n',
      'sub/local.ts': '',
      'sub/kept.ts': '',
    });
    const { subs, stats } = await walk(dir);
    assert.deepEqual(subs, ['.gitignore', 'sub/.gitignore', 'sub/kept.ts']);
    assert.equal(stats.ignored, 3);
  });

  test('linked folders are not followed; linked files count only inside the workspace', async () => {
    const dir = tree({ 'real/f.txt': '' });
    const outside = path.join(path.dirname(dir), 'outside.txt');
    fs.writeFileSync(outside, 'secret');
    fs.symlinkSync(path.join(dir, 'real'), path.join(dir, 'loop'));
    fs.symlinkSync(path.join(dir, 'real/f.txt'), path.join(dir, 'link.txt'));
    fs.symlinkSync(outside, path.join(dir, 'out.txt'));
    const { subs } = await walk(dir);
    assert.deepEqual(subs, ['link.txt', 'real/f.txt']);
  });

  test('stops after maxEntries and says so; an aborted walk yields nothing', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 50; i++) files[`d${i % 5}/f${i}.txt`] = '';
    const dir = tree(files);
    const cut = await walk(dir, { maxEntries: 10 });
    assert.equal(cut.stats.truncated, true);
    assert.ok(cut.subs.length < 10, `${cut.subs.length} files`);
    const whole = await walk(dir);
    assert.equal(whole.subs.length, 50);
    assert.equal(whole.stats.truncated, false);
    const stop = new AbortController();
    stop.abort();
    assert.deepEqual((await walk(dir, { signal: stop.signal })).subs, []);
  });
});
