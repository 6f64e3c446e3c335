// Installable like a real CLI: the packed tarball installs globally into a temporary prefix, and
// `hookline` runs from any folder; `import 'hookline/sdk'` resolves for a hook in a project where
// hookline is installed. Offline: a small registry on 127.0.0.1 serves the dependencies from this
// checkout's node_modules (as recorded in package-lock.json), and npm uses a throwaway cache.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../helpers.js';
import { localRegistry, run } from './registry.js';

test('npm pack, npm install -g into a prefix: hookline --version, a fire, and an SDK hook', { timeout: 120_000 }, async (t) => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-install-'));
  t.after(() => fs.rmSync(base, { recursive: true, force: true }));
  const bin = fs.statSync(path.join(ROOT, 'dist', 'cli', 'main.js'));
  assert.ok(bin.mode & 0o111, 'dist/cli/main.js is executable');
  assert.match(fs.readFileSync(path.join(ROOT, 'dist', 'cli', 'main.js'), 'utf8'), /^#!\/usr\/bin\/env node\n/);

  const registry = await localRegistry(base);
  t.after(() => registry.close());
  const { npmEnv } = registry;
  const packed = path.basename(registry.tarball);
  const prefix = path.join(base, 'prefix');
  await run('npm', ['install', '-g', '--prefix', prefix, path.join(base, packed)], { env: npmEnv });

  // From a folder that has nothing to do with hookline, with a fresh home.
  const away = path.join(base, 'elsewhere');
  const home = path.join(base, 'home');
  fs.mkdirSync(away);
  fs.mkdirSync(home);
  const env = {
    ...process.env,
    HOME: home,
    GEMINI_CLI_HOME: home,
    PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH}`,
  };
  const version = await run('hookline', ['--version'], { cwd: away, env });
  assert.equal(version.stdout.trim(), JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version);

  // A project with hookline installed, and a hook written with hookline/sdk, run by `hookline fire`.
  const project = path.join(base, 'project');
  fs.mkdirSync(path.join(project, '.gemini', 'hooks'), { recursive: true });
  await run('npm', ['install', '--no-save', '--prefix', project, path.join(base, packed)], { env: npmEnv });
  fs.writeFileSync(
    path.join(project, '.gemini', 'hooks', 'guard.mjs'),
    "import { defineHook, deny } from 'hookline/sdk';\nawait defineHook((input) => (String(input.tool_input?.command ?? '').includes('rm -rf') ? deny('not here') : undefined));\n",
  );
  fs.writeFileSync(
    path.join(project, '.gemini', 'settings.json'),
    JSON.stringify({
      hooks: {
        BeforeTool: [
          {
            matcher: 'run_shell_command',
            hooks: [{ type: 'command', name: 'guard', command: 'node "$GEMINI_PROJECT_DIR/.gemini/hooks/guard.mjs"' }],
          },
        ],
      },
    }),
  );
  await run('hookline', ['trust', project], { cwd: away, env });
  const fired = await run('hookline', ['fire', 'BeforeTool', '--cwd', project, '--input', path.join(base, 'input.json')], {
    cwd: away,
    env,
  }).catch((e) => e);
  assert.match(String(fired.stderr), /input file .*input\.json not found/, 'a missing input file is a one-line error');
  fs.writeFileSync(path.join(base, 'input.json'), JSON.stringify({ tool_name: 'run_shell_command', tool_input: { command: 'rm -rf /' } }));
  const r = await run('hookline', ['fire', 'BeforeTool', '--cwd', project, '--input', path.join(base, 'input.json')], { cwd: away, env });
  const out = JSON.parse(r.stdout);
  assert.equal(out.output.decision, 'deny');
  assert.equal(out.output.reason, 'not here');
  assert.equal(out.runs[0].exitCode, 0, out.runs[0].stderr);
});
