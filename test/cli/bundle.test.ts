// The installed `hookline` is the bundle (dist/bin/hookline.cjs, package.json "bin"): it must
// answer as the unbundled CLI does, with its compile cache written and then used.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cmd, makeProject, ROOT } from '../helpers.js';

const BIN = path.join(ROOT, 'dist', 'bin', 'hookline.cjs');
/** The CLI as tsc builds it, unbundled: what the bundle must answer as. */
const CLI = path.join(ROOT, 'dist', 'cli', 'main.js');

function run(
  entry: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A fire report without what differs between two runs (times, the session id the input carries). */
function stable(stdout: string): unknown {
  const r = JSON.parse(stdout);
  for (const run of r.runs) run.durationMs = 0;
  return r;
}

test('package.json "bin" is the bundle launcher, executable, with a shebang', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  assert.equal(pkg.bin.hookline, 'dist/bin/hookline.cjs');
  assert.ok(fs.statSync(BIN).mode & 0o111);
  assert.match(fs.readFileSync(BIN, 'utf8'), /^#!\/usr\/bin\/env node\n/);
  assert.doesNotMatch(fs.readFileSync(path.join(ROOT, 'dist', 'bin', 'cli.cjs'), 'latin1'), /[^\x00-\x7f]/, 'the bundle is ASCII');
});

test('the bundled CLI answers --version, --help, fire and a bad event as the unbundled one does; its compile cache is private and used', async () => {
  const p = makeProject({
    project: {
      hooks: {
        BeforeTool: [
          {
            matcher: 'run_shell_command',
            hooks: [cmd(`cat >/dev/null; echo '{"decision":"deny","reason":"bundled"}'`, { name: 'guard' })],
          },
        ],
      },
    },
  });
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-cache-'));
  const env = { ...p.env, XDG_CACHE_HOME: cache };
  delete env.NODE_DISABLE_COMPILE_CACHE;
  const input = path.join(p.dir, 'input.json');
  fs.writeFileSync(input, JSON.stringify({ tool_name: 'run_shell_command', tool_input: { command: 'ls' } }));
  const fire = ['fire', 'BeforeTool', '--cwd', p.dir, '--input', input, '--session-id', 'bundle-test'];
  for (const args of [['--version'], ['--help'], fire, ['fire', 'BeforeTol']]) {
    const [bundled, plain] = await Promise.all([run(BIN, args, env), run(CLI, args, env)]);
    assert.equal(bundled.code, plain.code, `${args.join(' ')}: ${bundled.stderr}`);
    assert.equal(bundled.stderr, plain.stderr, args.join(' '));
    if (args[0] === 'fire' && bundled.code === 0) assert.deepEqual(stable(bundled.stdout), stable(plain.stdout));
    else assert.equal(bundled.stdout, plain.stdout, args.join(' '));
  }
  const dir = path.join(cache, 'hookline');
  assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
  const files = fs.readdirSync(dir);
  const builtIn = typeof (await import('node:module')).default.enableCompileCache === 'function';
  const fireCache = files.find((f) => f.endsWith('-fire.cache'));
  if (!builtIn) {
    // Node before 22.1: one cache file per command, owner-only.
    assert.ok(fireCache, files.join(', '));
    for (const f of files) assert.equal(fs.statSync(path.join(dir, f)).mode & 0o777, 0o600, f);
  } else assert.ok(files.length > 0);
  const before = fireCache && fs.statSync(path.join(dir, fireCache)).ino;
  // Settings with problems: the schemas load (lazily, in the bundle) and word them the same.
  const bad = makeProject({
    project: { hooks: { BeforeTool: [{ hooks: [cmd('true', { timeout: 'soon', extra: 1 }), cmd('true', { env: { N: 1 } })] }], Nope: [] } },
  });
  const badArgs = ['fire', 'BeforeTool', '--cwd', bad.dir, '--input', input, '--session-id', 'bundle-test'];
  const [bundledBad, plainBad] = await Promise.all([run(BIN, badArgs, { ...bad.env, XDG_CACHE_HOME: cache }), run(CLI, badArgs, bad.env)]);
  assert.equal(bundledBad.code, plainBad.code, bundledBad.stderr);
  assert.match(plainBad.stderr, /timeout/);
  assert.equal(bundledBad.stderr, plainBad.stderr);
  assert.deepEqual(stable(bundledBad.stdout), stable(plainBad.stdout));

  const again = await run(BIN, fire, env);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(JSON.parse(again.stdout).output.reason, 'bundled');
  // Accepted, so not written again (a rejected cache is replaced by a new file).
  if (fireCache) assert.equal(fs.statSync(path.join(dir, fireCache)).ino, before);

  // A cache folder others can write is not used (its code would run here): the CLI still works.
  fs.chmodSync(dir, 0o777);
  const open = await run(BIN, ['--version'], env);
  assert.equal(open.code, 0, open.stderr);
});

test('`fire` reads the packages few events need (RE2, the schemas) from vendor*.cjs only when an event needs one, compiled with a cache of its own', async () => {
  const guard = (matcher: string, reason: string) => ({
    BeforeTool: [{ matcher, hooks: [cmd(`cat >/dev/null; echo '{"decision":"deny","reason":"${reason}"}'`, { name: reason })] }],
  });
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-cache-'));
  const fire = (p: ReturnType<typeof makeProject>, tool: string) => {
    const input = path.join(p.dir, 'input.json');
    fs.writeFileSync(input, JSON.stringify({ tool_name: tool, tool_input: {} }));
    const env = { ...p.env, XDG_CACHE_HOME: cache };
    delete env.NODE_DISABLE_COMPILE_CACHE;
    return run(BIN, ['fire', 'BeforeTool', '--cwd', p.dir, '--input', input, '--session-id', 'vendor-test'], env);
  };
  const builtIn = typeof (await import('node:module')).default.enableCompileCache === 'function';
  const vendorCaches = () => fs.readdirSync(path.join(cache, 'hookline')).filter((f) => /-vendor[\w-]*\.cache$/.test(f));

  const plain = await fire(makeProject({ project: { hooks: guard('read_file', 'plain name') } }), 'read_file');
  assert.equal(plain.code, 0, plain.stderr);
  assert.equal(JSON.parse(plain.stdout).output.reason, 'plain name');
  if (!builtIn) assert.deepEqual(vendorCaches(), [], 'plain names need nothing from vendor*.cjs');

  const patterned = makeProject({ project: { hooks: guard('run_.*', 'pattern') } });
  const pattern = await fire(patterned, 'run_shell_command');
  assert.equal(pattern.code, 0, pattern.stderr);
  assert.equal(JSON.parse(pattern.stdout).output.reason, 'pattern');
  if (!builtIn)
    assert.deepEqual(
      vendorCaches().map((f) => f.split(`-${process.arch}-`)[1]),
      ['vendor-re2.cache'],
      'a pattern runs on RE2, from vendor-re2.cjs',
    );
  const again = await fire(patterned, 'run_shell_command');
  assert.equal(JSON.parse(again.stdout).output.reason, 'pattern', again.stderr);
});
