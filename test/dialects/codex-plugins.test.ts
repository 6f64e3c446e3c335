// Codex plugins, as real processes and on their own: where Codex 0.169 finds an enabled plugin
// (its cache, its version folder, its manifest's hook files), the trust records it keeps for one
// (the hook's hash and the plugin's contents, both values measured from the real Codex), the
// plugin's folders in the hook's environment and as ${NAME} in its command, `hookline list`
// naming the plugin, and a plugin only a project turns on waiting for Hookline's review too.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runCli } from '../helpers.js';
import { dialectProject, q } from './util.js';
import { codexHookHash, loadCodexConfig } from '../../src/dialects/codex/config.js';
import {
  codexPluginFingerprint,
  codexPluginHookSources,
  expandCodexCommand,
  parsePluginId,
  pluginVersion,
  type CodexPlugin,
} from '../../src/dialects/codex/plugins.js';
import { withTrustRecords } from '../../src/dialects/codex/trust.js';

const ID = 'guard@tools';

/** A home with one plugin installed in Codex's cache (`files` relative to its version folder) and the config.toml given. */
function setup(files: Record<string, string>, toml = `[plugins."${ID}"]\nenabled = true\n`, version = '1.0.0') {
  const p = dialectProject({ prefix: 'hookline-codex-plugin-' });
  const codexHome = path.join(p.home, '.codex');
  const root = path.join(codexHome, 'plugins', 'cache', 'tools', 'guard', version);
  const all = { '.codex-plugin/plugin.json': JSON.stringify({ name: 'guard', version }), ...files };
  for (const [rel, content] of Object.entries(all)) p.write(path.join(root, rel), content);
  fs.writeFileSync(path.join(codexHome, 'config.toml'), toml);
  const env = { ...p.env, HOOKLINE_CODEX_SYSTEM_DIR: path.join(p.base, 'no-etc-codex') };
  delete env.CODEX_HOME;
  return { ...p, env, root, codexHome, config: path.join(codexHome, 'config.toml') };
}

const hooksJson = (event: string, command: string, matcher?: string) =>
  JSON.stringify({ hooks: { [event]: [{ ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command }] }] } });

const bash = { tool_name: 'Bash', tool_input: { command: 'ls' } };
const fire = (event: string, input: unknown, p: { dir: string; env: NodeJS.ProcessEnv }) =>
  runCli(['fire', event, '--dialect', 'codex', '--input', '-'], { cwd: p.dir, env: p.env, input: JSON.stringify(input) });

describe('Codex plugins: found, trusted and run as Codex does', () => {
  test('a plugin hook is held back until reviewed; hookline trust writes both of Codex’s hashes; it then runs with the plugin’s folders', async () => {
    const out = (name: string) => `>> ${q(path.join('OUT', name))}`;
    const script = [
      'cat > /dev/null',
      `printf '%s\\n' "$PLUGIN_ROOT" "$PLUGIN_DATA" "$CLAUDE_PLUGIN_ROOT" "$CLAUDE_PLUGIN_DATA" ${out('env')}`,
      `printf '%s\\n' "$1" ${out('arg')}`,
      `if [ -d "$PLUGIN_DATA" ]; then echo made ${out('data')}; else echo absent ${out('data')}; fi`,
      `echo '{"decision": "block", "reason": "from the plugin"}'`,
    ].join('\n');
    const p = setup({});
    const outDir = path.join(p.base, 'out');
    fs.mkdirSync(outDir);
    p.write(path.join(p.root, 'scripts', 'guard.sh'), script.split("'OUT/").join(`'${outDir}/`));
    p.write(
      path.join(p.root, 'hooks', 'hooks.json'),
      hooksJson('PreToolUse', 'bash ${PLUGIN_ROOT}/scripts/guard.sh "${CLAUDE_PLUGIN_DATA}"', 'Bash'),
    );

    const held = await fire('PreToolUse', bash, p);
    assert.equal(held.code, 0, held.stderr);
    assert.equal(held.json().runs.length, 0);
    assert.match(held.stderr, /plugin guard@tools \(PreToolUse Bash\): bash \$\{PLUGIN_ROOT\}/);

    const listed = await runCli(['list', '--json'], { cwd: p.dir, env: p.env });
    const mine = () => listed.json().hooks.filter((h: { source: string }) => h.source === 'codex');
    assert.deepEqual(
      mine().map((h: { event: string; plugin: string; trusted: boolean }) => [h.event, h.plugin, h.trusted]),
      [['PreToolUse', ID, false]],
    );
    const table = await runCli(['list'], { cwd: p.dir, env: p.env });
    assert.match(
      table.stdout,
      /PreToolUse\s+Bash\s+bash \$\{PLUGIN_ROOT\}\S+ "\$\{CLAUDE_PLUGIN_DATA\}"\s+codex plugin guard@tools\s+enabled\s+untrusted/,
    );

    const t = await runCli(['trust', p.dir], { cwd: p.dir, env: p.env });
    assert.equal(t.code, 0, t.stderr);
    assert.match(t.stdout, /- codex: plugin guard@tools \(PreToolUse Bash\)/);
    const hash = codexHookHash('PreToolUse', 'Bash', {
      command: 'bash ${PLUGIN_ROOT}/scripts/guard.sh "${CLAUDE_PLUGIN_DATA}"',
      timeout: 600,
      async: false,
    });
    assert.equal(
      fs.readFileSync(p.config, 'utf8'),
      `[plugins."${ID}"]\nenabled = true\n\n[hooks.state."${ID}:hooks/hooks.json:pre_tool_use:0:0"]\ntrusted_hash = "${hash}"\ntrusted_content_hash = "${codexPluginFingerprint(p.root)}"\n`,
    );

    const ran = await fire('PreToolUse', bash, p);
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(ran.json().runs.length, 1);
    assert.equal(ran.json().output.permissionDecision, 'deny');
    const data = path.join(p.codexHome, 'plugins', 'data', 'guard-tools');
    const read = (name: string) => fs.readFileSync(path.join(outDir, name), 'utf8').trim().split('\n');
    assert.deepEqual(read('env'), [p.root, data, p.root, data]);
    assert.deepEqual(read('arg'), [data]);
    // Codex does not make the data folder; nor does Hookline.
    assert.deepEqual(read('data'), ['absent']);
  });

  test('a plugin whose files changed since its review is held back as changed; a record without its contents still vouches for it', async () => {
    const p = setup({ 'hooks/hooks.json': hooksJson('Stop', 'bash ${PLUGIN_ROOT}/stop.sh'), 'stop.sh': 'exit 0\n' });
    await runCli(['trust', p.dir], { cwd: p.dir, env: p.env });
    fs.writeFileSync(path.join(p.root, 'stop.sh'), 'echo changed\n');
    const changed = await fire('Stop', {}, p);
    assert.equal(changed.json().runs.length, 0);
    assert.match(changed.stderr, /plugin guard@tools \(Stop\): .*: changed since it was trusted/);
    // Codex's own record may lack the plugin's contents: the hook's hash alone then counts.
    fs.writeFileSync(p.config, fs.readFileSync(p.config, 'utf8').replace(/^trusted_content_hash = .*\n/m, ''));
    const ran = await fire('Stop', {}, p);
    assert.equal(ran.json().runs.length, 1, ran.stderr);
  });

  test('enabled where Codex reads it: enabled = false, a trusted project’s config.toml over the user’s, not installed said with the command that installs it', () => {
    const files = { 'hooks/hooks.json': hooksJson('Stop', 'true') };
    const off = setup(files, `[plugins."${ID}"]\nenabled = false\n`);
    assert.equal(loadCodexConfig({ projectDir: off.dir, env: off.env }).hooks.length, 0);

    // A table without `enabled` turns it on.
    const bare = setup(files, `[plugins."${ID}"]\n`);
    assert.equal(loadCodexConfig({ projectDir: bare.dir, env: bare.env }).hooks.length, 1);

    const p = setup(files);
    fs.mkdirSync(path.join(p.dir, '.git'));
    p.write(path.join(p.dir, '.codex', 'config.toml'), `[plugins."${ID}"]\nenabled = false\n`);
    // The project's word counts only where Codex reads the project's config.toml.
    assert.equal(loadCodexConfig({ projectDir: p.dir, env: p.env }).hooks.length, 1);
    fs.appendFileSync(p.config, `\n[projects.${JSON.stringify(p.dir)}]\ntrust_level = "trusted"\n`);
    assert.equal(loadCodexConfig({ projectDir: p.dir, env: p.env }).hooks.length, 0);

    const missing = setup({}, `[plugins."lint@tools"]\n[plugins."bad id"]\n`);
    const loaded = loadCodexConfig({ projectDir: missing.dir, env: missing.env });
    assert.deepEqual(
      loaded.problems.map((x) => x.message),
      [
        `"bad id" is not a plugin id Codex accepts ("<plugin>@<marketplace>"); its hooks do not run`,
        `plugin lint@tools is enabled but not installed (nothing in ${path.join(missing.codexHome, 'plugins', 'cache', 'tools', 'lint')}); its hooks do not run (codex plugin add lint@tools)`,
      ],
    );
  });

  test('plugins load after every other layer, by id; a file’s hooks are numbered event by event in Codex’s order', () => {
    const p = setup({
      'hooks/hooks.json': JSON.stringify({
        hooks: { Stop: [{ hooks: [{ type: 'command', command: 'b' }] }], SessionStart: [{ hooks: [{ type: 'command', command: 'a' }] }] },
      }),
    });
    const other = path.join(p.codexHome, 'plugins', 'cache', 'tools', 'audit', '2.0.0');
    p.write(path.join(other, '.claude-plugin', 'plugin.json'), '{"name": "audit"}');
    p.write(path.join(other, 'hooks', 'hooks.json'), hooksJson('Stop', 'c'));
    fs.appendFileSync(p.config, '[plugins."audit@tools"]\n');
    p.write(path.join(p.codexHome, 'hooks.json'), hooksJson('Stop', 'user'));
    const loaded = loadCodexConfig({ projectDir: p.dir, env: p.env });
    assert.deepEqual(
      loaded.hooks.map((h) => [h.codex.key, h.codex.order]),
      [
        [`${path.join(p.codexHome, 'hooks.json')}:stop:0:0`, 0],
        ['audit@tools:hooks/hooks.json:stop:0:0', 1],
        [`${ID}:hooks/hooks.json:session_start:0:0`, 2],
        [`${ID}:hooks/hooks.json:stop:0:0`, 3],
      ],
    );
  });

  test('identical hooks run once each, as Codex runs them', async () => {
    const same = { type: 'command', command: 'echo \'{"decision": "block", "reason": "x"}\'' };
    const p = setup({ 'hooks/hooks.json': JSON.stringify({ hooks: { Stop: [{ hooks: [same, same] }] } }) });
    await runCli(['trust', p.dir], { cwd: p.dir, env: p.env });
    const r = await fire('Stop', {}, p);
    assert.equal(r.json().runs.length, 2, r.stderr);
  });

  test('a plugin only the project turns on is the project’s: Hookline’s review holds it too', async () => {
    const p = setup({ 'hooks/hooks.json': hooksJson('Stop', 'true') }, '');
    fs.mkdirSync(path.join(p.dir, '.git'));
    p.write(path.join(p.dir, '.codex', 'config.toml'), `[plugins."${ID}"]\n`);
    fs.writeFileSync(p.config, `[projects.${JSON.stringify(p.dir)}]\ntrust_level = "trusted"\n`);
    const before = await runCli(['list', '--json'], { cwd: p.dir, env: p.env });
    const hook = before.json().hooks.find((h: { source: string; event: string }) => h.source === 'codex' && h.event === 'Stop');
    assert.deepEqual([hook.plugin, hook.trusted], [ID, false]);
    await runCli(['trust', p.dir], { cwd: p.dir, env: p.env });
    const r = await fire('Stop', {}, p);
    assert.equal(r.json().runs.length, 1, r.stderr);
  });

  test('a plugin holding what Codex cannot fingerprint (a symlink) runs no hook, and says why', () => {
    const p = setup({ 'hooks/hooks.json': hooksJson('Stop', 'true') });
    fs.symlinkSync('hooks/hooks.json', path.join(p.root, 'link'));
    const loaded = loadCodexConfig({ projectDir: p.dir, env: p.env });
    assert.equal(loaded.hooks.length, 0);
    assert.match(
      loaded.problems[0].message,
      /plugin guard@tools: its hooks do not run, as in Codex, .*unsupported plugin entry type: .*link/,
    );
  });
});

describe('Codex plugins on their own', () => {
  test('the contents hash is Codex’s: a tree measured against Codex 0.169 gives its value', () => {
    const p = setup({
      'hooks/hooks.json': '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"bash ${PLUGIN_ROOT}/scripts/stop.sh"}]}]}}',
      'scripts/stop.sh': 'echo stop\n',
      'scripts/lib/empty.txt': '',
      'README.md': 'x',
      'hooks.txt': 'y',
    });
    fs.writeFileSync(path.join(p.root, '.codex-plugin', 'plugin.json'), '{"name":"pa","version":"1.0.0"}');
    fs.mkdirSync(path.join(p.root, 'empty'));
    // `currentHash` of Codex's hooks/list for this plugin's hook: the hook's hash, then the contents'.
    assert.equal(codexPluginFingerprint(p.root), 'sha256:dfb704a633cfb15cbbd958751d49c98a71801ee4fc79e2a0dac8fdcc86ade42e');
    assert.equal(
      codexHookHash('Stop', undefined, { command: 'bash ${PLUGIN_ROOT}/scripts/stop.sh', timeout: 600, async: false }),
      'sha256:51902f55285266a4c5c9b320adabed6749b0df98c5b4b69b059661faa320160a',
    );
  });

  test('the version folder: local, else the greatest (versions as versions, any other name as text)', () => {
    assert.equal(pluginVersion(['1.0.0', '2.0.0', '10.0.0']), '10.0.0');
    assert.equal(pluginVersion(['10.0.0', 'local', 'zzz']), 'local');
    assert.equal(pluginVersion(['1.0.0', '1.0.0-beta']), '1.0.0');
    assert.equal(pluginVersion(['1.2', '1.10.0']), '1.2');
    assert.equal(pluginVersion(['9', '10']), '9');
    assert.equal(pluginVersion(['abc', '1.0.0']), 'abc');
    assert.equal(pluginVersion([]), undefined);
  });

  test('plugin ids as Codex accepts them', () => {
    assert.deepEqual(parsePluginId('My_Plug.x@mk-2'), { name: 'My_Plug.x', marketplace: 'mk-2' });
    for (const bad of ['..@mk', 'a@mk.x', 'a b@mk', 'nomarket', '@mk']) assert.equal(parsePluginId(bad), undefined, bad);
  });

  test('the manifest’s hooks: "./" paths, a list of them, inline objects; anything else falls back to hooks/hooks.json', () => {
    const p = setup({});
    const plugin: CodexPlugin = { id: ID, root: p.root, data: '', enabledIn: p.config, workspace: false };
    const sources = (hooks: unknown) => {
      fs.writeFileSync(path.join(p.root, '.codex-plugin', 'plugin.json'), JSON.stringify({ name: 'guard', hooks }));
      return codexPluginHookSources(plugin, []).map((s) => s.keyName);
    };
    assert.deepEqual(sources(undefined), ['hooks/hooks.json']);
    assert.deepEqual(sources('./more/./h.json'), ['more/h.json']);
    assert.deepEqual(sources(['./a.json', 'b.json', './c.json']), ['a.json', 'c.json']);
    const inline = { hooks: { Stop: [] } };
    assert.deepEqual(sources(inline), ['plugin.json#hooks[0]']);
    assert.deepEqual(sources([inline, inline]), ['plugin.json#hooks[0]', 'plugin.json#hooks[1]']);
    for (const fallBack of ['more/h.json', './hooks/../h.json', ['./a.json', inline], [], { Stop: [] }])
      assert.deepEqual(sources(fallBack), ['hooks/hooks.json'], JSON.stringify(fallBack));
  });

  test('${NAME} is replaced, quoted for where it stands; $NAME is left to the shell', () => {
    const vars = { PLUGIN_ROOT: '/p/my plugin' };
    assert.equal(expandCodexCommand('bash ${PLUGIN_ROOT}/x.sh $PLUGIN_ROOT', '/', vars), "bash $'/p/my\\x20plugin'/x.sh $PLUGIN_ROOT");
    assert.equal(expandCodexCommand("echo '${PLUGIN_ROOT}'", '/', { PLUGIN_ROOT: '/p' }), "echo '/p'");
    assert.equal(expandCodexCommand('echo ${PLUGIN_ROOTX} ${PLUGIN_ROOT:-d}', '/', vars), 'echo ${PLUGIN_ROOTX} ${PLUGIN_ROOT:-d}');
  });

  test('trust records for a plugin’s hook: both hashes written, and updated in place', () => {
    const added = withTrustRecords('', [{ key: `${ID}:hooks/hooks.json:stop:0:0`, hash: 'sha256:a', contentHash: 'sha256:b' }]);
    assert.equal(added, `[hooks.state."${ID}:hooks/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:a"\ntrusted_content_hash = "sha256:b"\n`);
    const kept = `[hooks.state."k"]\nenabled = true\ntrusted_hash = "sha256:old"\n\n[x]\ny = 1\n`;
    assert.equal(
      withTrustRecords(kept, [{ key: 'k', hash: 'sha256:new', contentHash: 'sha256:c' }]),
      `[hooks.state."k"]\ntrusted_content_hash = "sha256:c"\nenabled = true\ntrusted_hash = "sha256:new"\n\n[x]\ny = 1\n`,
    );
  });
});
