// Every review surface shows everything that decides what runs: an http hook's headers, the
// variables of yours it reads (said loudly), env, timeout, persistent and prewarm, and each surface
// (trust, trust --check, list, doctor, /hooks, the held-back warning) shows the same lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeProject, runCli } from '../helpers.js';
import { HookEngine } from '../../src/engine/index.js';
import { geminiControl } from '../../src/dialects/gemini/system.js';

const HTTP = {
  type: 'http',
  name: 'policy',
  url: 'https://policy.example/hook',
  headers: { Authorization: 'Bearer $GH_TOKEN' },
  allowedEnvVars: ['GH_TOKEN'],
  timeout: 2000,
};
const CMD = { type: 'command', name: 'log', command: 'cat >/dev/null', env: { TOK: '$NPM_TOKEN' }, persistent: true, prewarm: true };
const DETAILS = ['headers: Authorization=Bearer $GH_TOKEN', 'allowedEnvVars: GH_TOKEN', 'timeout: 2000'];
const LOUD = /READS YOUR VARIABLES: GH_TOKEN/;

test('trust, trust --check, list, doctor, /hooks and the held-back warning list the same fields', async () => {
  const p = makeProject({ project: { hooks: { BeforeTool: [{ hooks: [HTTP, CMD] }] } }, trusted: false });
  const surfaces: Array<[string, string]> = [];
  for (const args of [
    ['trust', '--check', p.dir],
    ['list', '--cwd', p.dir],
    ['doctor', '--cwd', p.dir],
  ]) {
    const r = await runCli(args, { env: p.env });
    surfaces.push([args.join(' '), r.stdout]);
  }
  const fired = await runCli(['fire', 'BeforeTool', '--cwd', p.dir, '--input', '-'], {
    env: p.env,
    input: '{"tool_name":"x","tool_input":{}}',
  });
  for (const [name, text] of surfaces) {
    for (const d of DETAILS) assert.ok(text.includes(d), `${name} shows ${d}:\n${text}`);
    assert.match(text, LOUD, name);
    assert.match(text, /persistent: true; prewarm: true; env: TOK=\$NPM_TOKEN/, name);
    assert.match(text, /READS YOUR VARIABLES: NPM_TOKEN/, name);
  }
  assert.equal(fired.code, 0);

  const json = JSON.parse((await runCli(['trust', '--check', '--json', p.dir], { env: p.env })).stdout);
  assert.deepEqual(json.untrusted[0].details, DETAILS);
  assert.deepEqual(json.untrusted[0].reads, ['GH_TOKEN']);
  const trusted = await runCli(['trust', p.dir], { env: p.env });
  for (const d of DETAILS) assert.ok(trusted.stdout.includes(d), `trust shows ${d}`);
  assert.match(trusted.stdout, LOUD);
  const listed = JSON.parse((await runCli(['list', '--cwd', p.dir, '--json'], { env: p.env })).stdout);
  assert.deepEqual(listed.hooks[0].details, DETAILS);
  assert.deepEqual(listed.hooks[0].reads, ['GH_TOKEN']);
  const doctor = JSON.parse((await runCli(['doctor', '--cwd', p.dir, '--json'], { env: p.env })).stdout);
  assert.deepEqual(doctor.hooks[0].details, DETAILS);

  // /hooks lists the engine's hooks with the same fields.
  const engine = new HookEngine({ cwd: p.dir, env: p.env, watchConfig: false });
  const hooks = geminiControl(engine).list();
  assert.deepEqual(hooks[0].details, DETAILS);
  assert.deepEqual(hooks[1].reads, ['NPM_TOKEN']);
  engine.close();
});

test('the held-back warning of a changed hook shows its fields too', async () => {
  const p = makeProject({ project: { hooks: { BeforeTool: [{ hooks: [{ ...HTTP, allowedEnvVars: [] }] }] } } });
  const { writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  writeFileSync(join(p.dir, '.gemini', 'settings.json'), JSON.stringify({ hooks: { BeforeTool: [{ hooks: [HTTP] }] } }));
  const r = await runCli(['fire', 'BeforeTool', '--cwd', p.dir, '--input', '-'], {
    env: p.env,
    input: '{"tool_name":"x","tool_input":{}}',
  });
  assert.match(r.stderr, /held back until trusted/);
  assert.match(r.stderr, /headers: Authorization=Bearer \$GH_TOKEN; allowedEnvVars: GH_TOKEN; timeout: 2000/);
  assert.match(r.stderr, LOUD);
});
