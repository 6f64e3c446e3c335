// `hookline fire --dialect claude SessionStart` gives its hooks a fresh `$CLAUDE_ENV_FILE`, sources
// it as the agent does and prints what they exported as `env`; the file is gone afterwards.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runCli } from '../helpers.js';
import { dialectProject, fx, q } from './util.js';

function setup(user: unknown) {
  return dialectProject({ prefix: 'hookline-cc-envfire-', home: { '.claude/settings.json': user } });
}

const cc = (command: string) => [{ hooks: [{ type: 'command', command }] }];

describe('CLAUDE_ENV_FILE in hookline fire', () => {
  test('SessionStart: what the hooks export is printed as env, and the file is removed', async () => {
    const { base, dir, env } = setup({});
    const seen = path.join(base, 'env-file-path.txt');
    fs.writeFileSync(
      path.join(env.HOME!, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { SessionStart: cc(`${fx('cc-env-export.sh')} ${q(seen)}`) } }),
    );
    const r = await runCli(['fire', 'SessionStart', '--dialect', 'claude', '--input', '-'], {
      cwd: dir,
      env,
      input: '{"source": "startup"}',
    });
    assert.equal(r.code, 0, r.stderr);
    const out = r.json();
    assert.deepEqual(out.env, { FOO: 'bar', GREETING: 'hello world' });
    assert.equal(out.runs.length, 1);
    const file = fs.readFileSync(seen, 'utf8');
    assert.ok(path.isAbsolute(file), file);
    assert.equal(fs.existsSync(file), false);
    assert.equal(fs.existsSync(path.dirname(file)), false);
  });

  test('SessionStart whose hooks export nothing prints an empty env; other events have no env field', async () => {
    const { dir, env } = setup({ hooks: { SessionStart: cc('cat > /dev/null'), Stop: cc('cat > /dev/null') } });
    const start = await runCli(['fire', 'SessionStart', '--dialect', 'claude', '--input', '-'], { cwd: dir, env, input: '{}' });
    assert.equal(start.code, 0, start.stderr);
    assert.deepEqual(start.json().env, {});
    const stop = await runCli(['fire', 'Stop', '--dialect', 'claude', '--input', '-'], { cwd: dir, env, input: '{}' });
    assert.equal(stop.code, 0, stop.stderr);
    assert.equal('env' in stop.json(), false);
  });
});
