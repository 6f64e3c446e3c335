// Writes of settings.json, trusted_hooks.json and trustedFolders.json: atomic, serialised across
// processes by a lock file, comments kept, symlinks followed, mode kept, read-only refused.
// Through the real CLI, with processes running at the same time.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { cmd, makeProject, runCli, type CliResult } from '../helpers.js';
import { parseJsonc } from '../../src/config/jsonc.js';
import { withFileLock } from '../../src/config/lock.js';
import { writeFileAtomic } from '../../src/config/write.js';

const N = 10;
const names = Array.from({ length: N }, (_, i) => `hook-${i}`);

function assertClean(r: CliResult): void {
  assert.doesNotMatch(r.stderr, /^\s+at /m, r.stderr);
}

const parse = (file: string) => {
  const r = parseJsonc(fs.readFileSync(file, 'utf8'));
  assert.ok(r.ok, `${file} is valid`);
  return r.value as Record<string, any>;
};

/** A workspace whose settings (with comments) configure hook-0 … hook-9. */
function tenHooks() {
  const hooks = names.map((n) => cmd('true', { name: n }));
  const text = `// workspace settings, kept as written\n{\n  /* the team's hooks */\n  "hooks": ${JSON.stringify({ BeforeTool: [{ hooks }] }, null, 2).replace(/\n/g, '\n  ')} // end of hooks\n}\n`;
  const p = makeProject({ project: text });
  return { ...p, file: path.join(p.dir, '.gemini', 'settings.json') };
}

/** Files left beside `file` by a write: temporary files and locks. */
const leftovers = (file: string) =>
  fs
    .readdirSync(path.dirname(file))
    .filter((f) => f.endsWith('.tmp') || f.endsWith('.lock') || f.endsWith('.stale') || f.endsWith('.break'));

describe('concurrent writes lose nothing', () => {
  test(`${N} concurrent \`hookline disable\` of different hooks: all ${N} names are in the file, comments kept`, async () => {
    const p = tenHooks();
    const runs = await Promise.all(names.map((n) => runCli(['disable', n, '--cwd', p.dir], { env: p.env })));
    for (const r of runs) {
      assertClean(r);
      assert.equal(r.code, 0, r.stderr);
    }
    assert.deepEqual([...parse(p.file).hooksConfig.disabled].sort(), [...names].sort());
    const text = fs.readFileSync(p.file, 'utf8');
    assert.match(text, /^\/\/ workspace settings, kept as written\n/);
    assert.match(text, /\/\* the team's hooks \*\//);
    assert.match(text, /\/\/ end of hooks/);
    assert.deepEqual(leftovers(p.file), []);
    // And back: 10 concurrent enables leave an empty list.
    const back = await Promise.all(names.map((n) => runCli(['enable', n, '--cwd', p.dir], { env: p.env })));
    for (const r of back) assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(parse(p.file).hooksConfig.disabled, []);
  });

  test(`${N} concurrent \`hookline trust\` of different folders: every folder and every hook is recorded`, async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-trust-home-'));
    fs.mkdirSync(path.join(home, '.gemini'));
    // The user's own comment in trustedFolders.json survives.
    fs.writeFileSync(
      path.join(home, '.gemini', 'trustedFolders.json'),
      '// reviewed by hand\n{\n  "/nowhere": "DO_NOT_TRUST" // never\n}\n',
    );
    const env: NodeJS.ProcessEnv = { ...process.env, GEMINI_CLI_HOME: home, GEMINI_CLI_SYSTEM_SETTINGS_PATH: path.join(home, 'none.json') };
    delete env.GEMINI_CLI_TRUST_WORKSPACE;
    const dirs = names.map((n) => {
      const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `hookline-trust-${n}-`)));
      fs.mkdirSync(path.join(dir, '.gemini'));
      fs.writeFileSync(
        path.join(dir, '.gemini', 'settings.json'),
        JSON.stringify({ hooks: { BeforeTool: [{ hooks: [cmd(`echo ${n}`, { name: n })] }] } }),
      );
      return dir;
    });
    const runs = await Promise.all(dirs.map((d) => runCli(['trust', d], { env })));
    for (const r of runs) {
      assertClean(r);
      assert.equal(r.code, 0, r.stderr);
    }
    const foldersFile = path.join(home, '.gemini', 'trustedFolders.json');
    const folders = parse(foldersFile);
    for (const d of dirs) assert.equal(folders[d], 'TRUST_FOLDER', d);
    assert.match(fs.readFileSync(foldersFile, 'utf8'), /^\/\/ reviewed by hand\n/);
    assert.match(fs.readFileSync(foldersFile, 'utf8'), /\/\/ never\n/);
    const hooks = parse(path.join(home, '.gemini', 'trusted_hooks.json'));
    dirs.forEach((d, i) =>
      assert.ok(
        (hooks[d] as string[]).some((k) => k.includes(`echo hook-${i}`)),
        `${d}: ${JSON.stringify(hooks[d])}`,
      ),
    );
    assert.deepEqual(leftovers(foldersFile), []);
    // Each folder now runs its hook.
    const check = await runCli(['trust', '--check', dirs[3]], { env });
    assert.equal(check.code, 0, check.stdout + check.stderr);
  });
});

describe('what a write keeps', () => {
  test('a symlinked settings file: the link stays, its target is written', async () => {
    const p = tenHooks();
    const real = path.join(path.dirname(p.dir), 'dotfiles', 'gemini-settings.json');
    fs.mkdirSync(path.dirname(real));
    fs.renameSync(p.file, real);
    fs.symlinkSync(path.relative(path.dirname(p.file), real), p.file);
    const r = await runCli(['disable', 'hook-3', '--cwd', p.dir], { env: p.env });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(fs.lstatSync(p.file).isSymbolicLink(), 'still a link');
    assert.deepEqual(parse(real).hooksConfig.disabled, ['hook-3']);
    assert.match(fs.readFileSync(real, 'utf8'), /workspace settings, kept as written/);
    assert.deepEqual(leftovers(p.file), []);
    assert.deepEqual(leftovers(real), []);
  });

  test('the file keeps its mode (0600)', async () => {
    const p = tenHooks();
    fs.chmodSync(p.file, 0o600);
    const r = await runCli(['disable', 'hook-1', '--cwd', p.dir], { env: p.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.statSync(p.file).mode & 0o777, 0o600);
    assert.deepEqual(parse(p.file).hooksConfig.disabled, ['hook-1']);
    // trustedFolders.json too.
    const folders = path.join(p.home, '.gemini', 'trustedFolders.json');
    fs.chmodSync(folders, 0o640);
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-other-'));
    const t = await runCli(['trust', other], { env: p.env });
    assert.equal(t.code, 0, t.stderr);
    assert.equal(fs.statSync(folders).mode & 0o777, 0o640);
  });

  test('a read-only settings file is refused in one line naming it, and left unchanged', async () => {
    const p = tenHooks();
    fs.chmodSync(p.file, 0o444);
    const before = fs.readFileSync(p.file, 'utf8');
    const r = await runCli(['disable', 'hook-2', '--cwd', p.dir], { env: p.env });
    assertClean(r);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, `hookline: ${p.file} is read-only; not changed (make it writable to let hookline change it)\n`);
    assert.equal(fs.readFileSync(p.file, 'utf8'), before);
    assert.equal(fs.statSync(p.file).mode & 0o777, 0o444);
    assert.deepEqual(leftovers(p.file), []);
  });

  test('a read-only trustedFolders.json is refused the same way by `hookline trust`', async () => {
    const p = makeProject({ trusted: false, project: {} });
    const folders = path.join(p.home, '.gemini', 'trustedFolders.json');
    fs.writeFileSync(folders, '{}\n');
    fs.chmodSync(folders, 0o400);
    const r = await runCli(['trust', p.dir], { env: p.env });
    assertClean(r);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^hookline: .*trustedFolders\.json is read-only; not changed/);
    assert.equal(r.stderr.split('\n').filter(Boolean).length, 1);
    assert.equal(fs.readFileSync(folders, 'utf8'), '{}\n');
  });

  test('a new file is written whole; nothing is left beside it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-atomic-'));
    const file = path.join(dir, 'sub', 'settings.json');
    writeFileAtomic(file, '{"a": 1}\n');
    assert.equal(fs.readFileSync(file, 'utf8'), '{"a": 1}\n');
    writeFileAtomic(file, '{"a": 2}\n');
    assert.equal(fs.readFileSync(file, 'utf8'), '{"a": 2}\n');
    assert.deepEqual(leftovers(file), []);
  });
});

describe('the lock file', () => {
  test('a lock left by a process that died is taken over', async () => {
    const p = tenHooks();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const pid = Number(dead.stdout);
    fs.writeFileSync(`${p.file}.lock`, JSON.stringify({ pid, host: os.hostname(), nonce: 'left-behind' }));
    const r = await runCli(['disable', 'hook-5', '--cwd', p.dir], { env: p.env });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(parse(p.file).hooksConfig.disabled, ['hook-5']);
    assert.deepEqual(leftovers(p.file), []);
  });

  test(`a stale lock found by ${N} writers at once is taken over by one at a time: no write is lost`, async () => {
    const dead = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
    for (let round = 0; round < 3; round++) {
      const p = tenHooks();
      fs.writeFileSync(`${p.file}.lock`, JSON.stringify({ pid: dead, host: os.hostname(), nonce: 'left-behind' }));
      const runs = await Promise.all(names.map((n) => runCli(['disable', n, '--cwd', p.dir], { env: p.env })));
      for (const r of runs) assert.equal(r.code, 0, r.stderr);
      assert.deepEqual([...parse(p.file).hooksConfig.disabled].sort(), [...names].sort(), `round ${round}`);
      assert.deepEqual(leftovers(p.file), []);
    }
  });

  test('an unreadable lock older than the stale limit is taken over', async () => {
    const p = tenHooks();
    const lock = `${p.file}.lock`;
    fs.writeFileSync(lock, '');
    const old = new Date(Date.now() - 10 * 60_000);
    fs.utimesSync(lock, old, old);
    const r = await runCli(['disable', 'hook-6', '--cwd', p.dir], { env: p.env });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(parse(p.file).hooksConfig.disabled, ['hook-6']);
  });

  test("a live owner's lock is respected; when the owner dies the waiting write goes ahead", async () => {
    const p = tenHooks();
    const owner = spawn('sleep', ['60'], { stdio: 'ignore' });
    fs.writeFileSync(`${p.file}.lock`, JSON.stringify({ pid: owner.pid, host: os.hostname(), nonce: 'held' }));
    const run = runCli(['disable', 'hook-7', '--cwd', p.dir], { env: p.env });
    // The CLI cannot write while the owner lives; it gives up only after a long wait.
    assert.equal(parse(p.file).hooksConfig, undefined);
    const gone = new Promise((resolve) => owner.on('exit', resolve));
    owner.kill('SIGKILL');
    await gone;
    const r = await run;
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(parse(p.file).hooksConfig.disabled, ['hook-7']);
    assert.deepEqual(leftovers(p.file), []);
  });

  test('withFileLock releases on error and leaves no lock file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-lock-'));
    const target = path.join(dir, 'f.json');
    assert.throws(
      () =>
        withFileLock(target, () => {
          throw new Error('boom');
        }),
      /boom/,
    );
    assert.deepEqual(fs.readdirSync(dir), []);
    assert.equal(
      withFileLock(target, () => 42),
      42,
    );
    assert.deepEqual(fs.readdirSync(dir), []);
  });
});
