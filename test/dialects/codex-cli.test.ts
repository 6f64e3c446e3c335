// `hookline fire|validate|trust|list --dialect codex`, as real processes: Codex's layers and both
// file forms, its trust records (a hook without one, or changed since, is held back and named),
// `hookline trust` writing them, a project Codex does not trust, managed hooks, a file Codex
// refuses, and the trust-record writer on its own.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runCli } from '../helpers.js';
import { dialectProject, fx, q } from './util.js';
import { withTrustRecords } from '../../src/dialects/codex/trust.js';
import { codexHookHash } from '../../src/dialects/codex/config.js';

const reply = (exit: number, out = '', err = '') => `${fx('cc-reply.sh')} ${exit} ${q(out)} ${q(err)}`;
const deny = reply(0, '{"decision": "block", "reason": "no rm"}');
const hooksFile = (command: string, event = 'PreToolUse', matcher: string | undefined = 'Bash') => ({
  hooks: { [event]: [{ ...(matcher !== undefined ? { matcher } : {}), hooks: [{ type: 'command', command }] }] },
});

function setup(files: { user?: unknown; toml?: string; project?: unknown; system?: unknown } = {}, trusted = true) {
  const p = dialectProject({
    prefix: 'hookline-codex-',
    home: { '.codex/hooks.json': files.user },
    project: { '.codex/hooks.json': files.project },
    trusted,
  });
  const system = path.join(p.base, 'etc-codex');
  if (files.system) p.write(path.join(system, 'hooks.json'), files.system);
  fs.mkdirSync(path.join(p.home, '.codex'), { recursive: true });
  if (files.toml !== undefined) fs.writeFileSync(path.join(p.home, '.codex', 'config.toml'), files.toml);
  const env = { ...p.env, HOOKLINE_CODEX_SYSTEM_DIR: system };
  delete env.CODEX_HOME;
  return { ...p, env, config: path.join(p.home, '.codex', 'config.toml'), userHooks: path.join(p.home, '.codex', 'hooks.json') };
}

const bash = { tool_name: 'Bash', tool_input: { command: 'rm -rf build' } };
const fire = (event: string, input: unknown, p: { dir: string; env: NodeJS.ProcessEnv }, extra: string[] = []) =>
  runCli(['fire', event, '--dialect', 'codex', '--input', '-', ...extra], { cwd: p.dir, env: p.env, input: JSON.stringify(input) });

describe('hookline fire --dialect codex: Codex trust records', () => {
  test('a user hook without a record is held back and named, with the command that reviews it; hookline trust records it, then it runs', async () => {
    const p = setup({ user: hooksFile(deny) });
    const held = await fire('PreToolUse', bash, p);
    assert.equal(held.code, 0, held.stderr);
    assert.equal(held.json().runs.length, 0);
    assert.deepEqual(
      held.json().heldBack.map((h: { event: string; reason: string }) => [h.event, h.reason]),
      [['PreToolUse', 'untrusted-hook']],
    );
    assert.match(held.stderr, /Codex hook\(s\) without a trust record in .*config\.toml do not run/);
    assert.match(held.stderr, /hooks\.json \(PreToolUse Bash\): .*cc-reply\.sh/);
    assert.match(held.stderr, /run: hookline trust /);

    const t = await runCli(['trust', p.dir], { cwd: p.dir, env: p.env });
    assert.equal(t.code, 0, t.stderr);
    assert.match(t.stdout, /recorded as reviewed in their agent's own trust records:\n {2}- codex: .*PreToolUse Bash/);
    const toml = fs.readFileSync(p.config, 'utf8');
    const key = `${p.userHooks}:pre_tool_use:0:0`;
    const hash = codexHookHash('PreToolUse', 'Bash', { command: deny, timeout: 600, async: false });
    assert.equal(toml, `[hooks.state.${JSON.stringify(key)}]\ntrusted_hash = ${JSON.stringify(hash)}\n`);

    const ran = await fire('PreToolUse', bash, p);
    assert.equal(ran.code, 0, ran.stderr);
    const out = ran.json();
    assert.equal(out.runs.length, 1);
    assert.equal(out.output.permissionDecision, 'deny');
    assert.equal(out.output.permissionDecisionReason, 'no rm');
    assert.doesNotMatch(ran.stderr, /do not run/);
  });

  test('a hook changed since its record is held back as changed; enabled = false turns one off without a word', async () => {
    const p = setup({ user: hooksFile(deny) });
    await runCli(['trust', p.dir], { cwd: p.dir, env: p.env });
    p.write(p.userHooks, hooksFile(reply(0, '{"decision": "block", "reason": "changed"}')));
    const changed = await fire('PreToolUse', bash, p);
    assert.equal(changed.json().runs.length, 0);
    assert.match(changed.stderr, /cc-reply\.sh.*: changed since it was trusted/);

    fs.writeFileSync(p.config, `[hooks.state.${JSON.stringify(`${p.userHooks}:pre_tool_use:0:0`)}]\nenabled = false\n`);
    const off = await fire('PreToolUse', bash, p);
    assert.equal(off.json().runs.length, 0);
    assert.doesNotMatch(off.stderr, /do not run/);
  });

  test('hooks in config.toml: the same trust; hooks.json and [hooks] in one folder both load, with a warning', async () => {
    const command = reply(0, '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "from toml"}}');
    const toml = `[[hooks.PreToolUse]]\nmatcher = "Bash"\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = ${JSON.stringify(command)}\n`;
    const p = setup({ toml, user: hooksFile(reply(0, '')) });
    const t = await runCli(['trust', p.dir], { cwd: p.dir, env: p.env });
    assert.equal(t.code, 0, t.stderr);
    const r = await fire('PreToolUse', bash, p);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json().runs.length, 2);
    assert.deepEqual(r.json().output.contexts, ['from toml']);
    assert.match(r.stderr, /hooks are in both .*hooks\.json and .*config\.toml; both load/);
    // The record went into the same config.toml, after its hooks, and they still parse.
    assert.match(
      fs.readFileSync(p.config, 'utf8'),
      /^\[\[hooks\.PreToolUse\]\][\s\S]*\[hooks\.state\."[^"]*config\.toml:pre_tool_use:0:0"\]/,
    );
  });

  test('--config naming the user’s hooks.json reads it once, with its records; a file Codex never reads runs as the user named it', async () => {
    const p = setup({ user: hooksFile(deny) });
    const own = await fire('PreToolUse', bash, p, ['--config', p.userHooks]);
    assert.equal(own.code, 0, own.stderr);
    assert.equal(own.json().runs.length, 0);
    assert.equal(own.json().heldBack.length, 1);
    assert.match(own.stderr, /without a trust record/);
    const v = await runCli(['validate', '--dialect', 'codex', '--config', p.userHooks, '--json'], { cwd: p.dir, env: p.env });
    assert.equal(v.json().files.filter((f: string) => f === p.userHooks).length, 1, v.stdout);

    const other = path.join(p.base, 'guard.json');
    p.write(other, hooksFile(deny));
    const named = await fire('PreToolUse', bash, p, ['--config', other]);
    assert.equal(named.code, 0, named.stderr);
    assert.equal(named.json().output.permissionDecision, 'deny');
    // The user's unreviewed hook is still held; only the named file's runs.
    assert.equal(named.json().runs.length, 1);
    assert.equal(named.json().runs[0].file, other);
  });

  test('"onFailure": "block" fails closed (Codex ignores the field): a hook that times out denies; without it the tool goes ahead', async () => {
    const slow = (extra: Record<string, unknown>) => ({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'sleep 5', timeout: 1, ...extra }] }] },
    });
    const p = setup({ system: slow({ onFailure: 'block' }) });
    const r = await fire('PreToolUse', bash, p);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json().output.permissionDecision, 'deny', r.stdout);
    assert.match(r.json().output.permissionDecisionReason, /onFailure: block/);

    const open = setup({ system: slow({}) });
    const o = await fire('PreToolUse', bash, open);
    assert.equal(o.json().runs.length, 1);
    assert.equal(o.json().output.permissionDecision, undefined, o.stdout);

    const typo = setup({ system: slow({ onFailure: 'Block' }) });
    const v = await runCli(['validate', '--dialect', 'codex'], { cwd: typo.dir, env: typo.env });
    assert.equal(v.code, 1, v.stdout);
    assert.match(
      v.stdout,
      /hooks\.PreToolUse\[0\]\.hooks\[0\]\.onFailure: "onFailure" must be "block" \(fail closed\) or left out, got "Block"; this hook fails closed/,
    );
    const t = await fire('PreToolUse', bash, typo);
    assert.equal(t.json().output.permissionDecision, 'deny', t.stdout);
  });

  test('a system (managed) hook runs with no record', async () => {
    const p = setup({ system: hooksFile(deny) });
    const r = await fire('PreToolUse', bash, p);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json().output.permissionDecision, 'deny');
  });

  test('a project Codex does not trust: its .codex is not loaded, and Hookline says how to trust it', async () => {
    const p = setup({ project: hooksFile(deny) });
    const r = await fire('PreToolUse', bash, p);
    assert.equal(r.json().runs.length, 0);
    assert.match(r.stderr, /Codex does not load \.codex\/hooks\.json: the project is not trusted in .*config\.toml/);
    assert.match(r.stderr, /trust_level = "trusted"/);
  });

  test('a project Codex trusts: its hook runs once recorded by Codex and trusted by Hookline; an edit holds it back again', async () => {
    const toml = (dir: string) => `[projects.${JSON.stringify(dir)}]\ntrust_level = "trusted"\n`;
    const p = setup({ project: hooksFile(deny) }, false);
    fs.writeFileSync(p.config, toml(p.dir));
    const r = await fire('PreToolUse', bash, p);
    assert.equal(r.json().runs.length, 0);
    assert.match(r.stderr, /Codex hook\(s\) without a trust record/);
    const t = await runCli(['trust', p.dir], { cwd: p.dir, env: p.env });
    assert.equal(t.code, 0, t.stderr);
    const ran = await fire('PreToolUse', bash, p);
    assert.equal(ran.json().output.permissionDecision, 'deny', ran.stderr);
    // The project's script changing holds it back again (Hookline's gate, on top of Codex's).
    p.write(path.join(p.dir, '.codex', 'hooks.json'), hooksFile(`${deny} # edited`));
    const held = await fire('PreToolUse', bash, p);
    assert.equal(held.json().runs.length, 0);
  });
});

describe('hookline validate --dialect codex', () => {
  test('a file Codex refuses loads no hook: one line naming the file and where; an Interrupt hook is a warning', async () => {
    const p = setup({
      user: { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true', timeout: '5' }] }] } },
      project: hooksFile('true', 'Interrupt', undefined),
    });
    fs.writeFileSync(p.config, `[projects.${JSON.stringify(p.dir)}]\ntrust_level = "trusted"\n`);
    const v = await runCli(['validate', '--dialect', 'codex'], { cwd: p.dir, env: p.env });
    assert.equal(v.code, 1, v.stdout);
    const lines = v.stdout.split('\n');
    assert.ok(
      lines.some(
        (l) =>
          l ===
          `error: ${p.userHooks}: hooks.PreToolUse[0].hooks[0].timeout: "timeout" must be a whole number of seconds, got "5" (Codex loads no hook from this file)`,
      ),
      v.stdout,
    );
    assert.ok(
      lines.some((l) =>
        /^warning: .*\.codex\/hooks\.json: hooks\.Interrupt\[0\]\.hooks\[0\]: Interrupt has no moment in hookline agent/.test(l),
      ),
      v.stdout,
    );
    assert.doesNotMatch(v.stdout + v.stderr, /\n\s+at /);
  });

  test('additionalContextLimit is a Codex field: in the trust hash when set, and a file with one that is not a number loads nothing', async () => {
    const def = { command: 'true', timeout: 600, async: false };
    assert.notEqual(codexHookHash('Stop', undefined, def), codexHookHash('Stop', undefined, { ...def, additionalContextLimit: 100 }));
    const p = setup({ user: { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true', additionalContextLimit: 'big' }] }] } } });
    const v = await runCli(['validate', '--dialect', 'codex'], { cwd: p.dir, env: p.env });
    assert.equal(v.code, 1, v.stdout);
    assert.match(
      v.stdout,
      /hooks\.Stop\[0\]\.hooks\[0\]\.additionalContextLimit: "additionalContextLimit" must be a whole number, got "big"/,
    );
    assert.doesNotMatch(v.stdout, /unknown field/);
  });

  test('an unknown event is named with the closest one; prompt, agent and mcp_tool hooks are skipped as Codex skips them', async () => {
    const p = setup({
      user: {
        hooks: {
          PreTooluse: [{ hooks: [{ type: 'command', command: 'true' }] }],
          Stop: [
            {
              hooks: [
                { type: 'prompt' },
                { type: 'agent' },
                { type: 'mcp_tool', server: 's', tool: 't' },
                { type: 'command', command: 'true' },
              ],
            },
          ],
        },
      },
    });
    const v = await runCli(['validate', '--dialect', 'codex', '--json'], { cwd: p.dir, env: p.env });
    const messages = v.json().problems.map((x: { path: string; message: string }) => `${x.path}: ${x.message}`);
    assert.ok(
      messages.some((m: string) => m.startsWith('hooks.PreTooluse: unknown Codex event "PreTooluse" (did you mean "PreToolUse"?)')),
      messages.join('\n'),
    );
    for (const [i, type] of ['prompt', 'agent', 'mcp_tool'].entries())
      assert.ok(messages.includes(`hooks.Stop[0].hooks[${i}]: ${type} hooks are not supported by Codex: skipped`), messages.join('\n'));
    // The command after them loads, keyed by its own place in the group.
    assert.deepEqual(
      v.json().trust.map((t: { key: string }) => t.key.replace(/^.*hooks\.json:/, '')),
      ['stop:0:3'],
    );
  });
});

test('hookline list shows Codex hooks beside the others, with their trust', async () => {
  const p = setup({ user: hooksFile(deny) });
  const before = await runCli(['list', '--json'], { cwd: p.dir, env: p.env });
  const codex = () => before.json().hooks.filter((h: { source: string }) => h.source === 'codex');
  assert.deepEqual(
    codex().map((h: { event: string; matcher: string; trusted: boolean }) => [h.event, h.matcher, h.trusted]),
    [['PreToolUse', 'Bash', false]],
  );
  await runCli(['trust', p.dir], { cwd: p.dir, env: p.env });
  const after = await runCli(['list', '--json'], { cwd: p.dir, env: p.env });
  assert.deepEqual(
    after
      .json()
      .hooks.filter((h: { source: string }) => h.source === 'codex')
      .map((h: { trusted: boolean }) => h.trusted),
    [true],
  );
});

describe('Codex trust records written in config.toml', () => {
  test('appended as tables; an existing record is updated in its table, comments and other keys kept', () => {
    const text =
      '# mine\nmodel = "x"\n\n[hooks.state."/a.json:stop:0:0"] # reviewed\nenabled = true\ntrusted_hash = "sha256:old"\n\n[other]\nk = 1\n';
    const out = withTrustRecords(text, [
      { key: '/a.json:stop:0:0', hash: 'sha256:new' },
      { key: '/b "q".json:pre_tool_use:1:0', hash: 'sha256:b' },
    ]);
    assert.equal(
      out,
      '# mine\nmodel = "x"\n\n[hooks.state."/a.json:stop:0:0"] # reviewed\nenabled = true\ntrusted_hash = "sha256:new"\n\n[other]\nk = 1\n\n[hooks.state."/b \\"q\\".json:pre_tool_use:1:0"]\ntrusted_hash = "sha256:b"\n',
    );
  });

  test('a record written some other way is not rewritten: the error says to edit it by hand', () => {
    const text = '[hooks.state]\n"/a.json:stop:0:0" = { trusted_hash = "sha256:old" }\n';
    assert.throws(() => withTrustRecords(text, [{ key: '/a.json:stop:0:0', hash: 'sha256:new' }]), /edit it by hand/);
  });
});

describe('init, test and convert for Codex', () => {
  test('hookline init --dialect codex writes a .codex/hooks.json guard whose fixtures pass; the user’s CODEX_HOME is never touched', async () => {
    const p = setup();
    const mine = path.join(p.base, 'my-codex-home');
    const env = { ...p.env, CODEX_HOME: mine };
    const init = await runCli(['init', '--dialect', 'codex'], { cwd: p.dir, env });
    assert.equal(init.code, 0, init.stderr);
    const file = JSON.parse(fs.readFileSync(path.join(p.dir, '.codex', 'hooks.json'), 'utf8'));
    assert.equal(file.hooks.PreToolUse[0].matcher, 'Bash');
    const t = await runCli(['test'], { cwd: p.dir, env });
    assert.equal(t.code, 0, t.stdout + t.stderr);
    assert.match(t.stdout, /2 passed, 0 failed/);
    assert.equal(fs.existsSync(mine), false);
  });

  test('hookline convert --from claude --to codex: Codex tool names, the project variable it lacks noted', async () => {
    const p = setup();
    const src = path.join(p.base, 'claude.json');
    p.write(src, {
      hooks: { PreToolUse: [{ matcher: 'Bash|Edit', hooks: [{ type: 'command', command: '$CLAUDE_PROJECT_DIR/g.sh', timeout: 30 }] }] },
    });
    const r = await runCli(['convert', '--from', 'claude', '--to', 'codex', src], { cwd: p.dir, env: p.env });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json(), {
      hooks: { PreToolUse: [{ matcher: 'Bash|apply_patch', hooks: [{ type: 'command', command: './g.sh', timeout: 30 }] }] },
    });
    assert.match(r.stderr, /\$CLAUDE_PROJECT_DIR is not set by codex/);
  });
});
