// Fingerprints for the dialect workspace hooks (agent.yaml, .spatialagent/settings.json,
// .claude/settings*.json): a hook changed after `hookline trust` is held back in a folder the
// user trusted, runs and is recorded when trust is assumed, and a file named explicitly is the
// user's own.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { makeProject, runCli, type Project } from '../helpers.js';
import { claudeSystem } from '../../src/dialects/claude/system.js';
import { mmSystem } from '../../src/dialects/mm/system.js';
import { spatialAgentSystem } from '../../src/dialects/spatialagent/system.js';
import { copilotSystem } from '../../src/dialects/copilot/system.js';

/** Quotes a word for sh. */
const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

interface DialectCase {
  dialect: 'mm' | 'spatialagent' | 'claude' | 'copilot';
  /** The workspace file, relative to the project. */
  file: string;
  /** The file's text with these hook commands, all on the event fired below. */
  write: (commands: string[]) => string;
  /** Event and input for `hookline fire --dialect`. */
  event: string;
  input: string;
  /** The option naming a configuration file explicitly. */
  configFlag: string;
  /** The line of its other fields that every review surface shows under each hook (defaults included). */
  review: string;
}

const CASES: DialectCase[] = [
  {
    dialect: 'mm',
    file: 'agent.yaml',
    write: (cs) => `hooks:\n  preGeneration:\n${cs.map((c) => `    - command: ${JSON.stringify(c)}\n`).join('')}`,
    event: 'preGeneration',
    input: '{"prompt": "hi"}',
    configFlag: '--config',
    review: '      timeout: 10000 ms; onError: warn\n',
  },
  {
    dialect: 'spatialagent',
    file: path.join('.spatialagent', 'settings.json'),
    write: (cs) => JSON.stringify({ hooks: { Start: cs.map((command) => ({ type: 'bash', command })) } }),
    event: 'Start',
    input: '{"QUERY": "hi"}',
    configFlag: '--config',
    review: '      timeoutSeconds: 30\n',
  },
  {
    dialect: 'claude',
    file: path.join('.claude', 'settings.json'),
    write: (cs) => JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: cs.map((command) => ({ type: 'command', command })) }] } }),
    event: 'UserPromptSubmit',
    input: '{"prompt": "hi"}',
    configFlag: '--config',
    review: '',
  },
  {
    dialect: 'copilot',
    file: path.join('.github', 'hooks', 'hooks.json'),
    write: (cs) => JSON.stringify({ version: 1, hooks: { userPromptSubmitted: cs.map((bash) => ({ type: 'command', bash })) } }),
    event: 'userPromptSubmitted',
    input: '{"prompt": "hi"}',
    configFlag: '--config',
    review: '      folder: .github/hooks\n',
  },
];

interface TrustProject extends Project {
  /** Labels of the hooks that ran, in order. */
  ran: () => string[];
  /** A hook command appending `label` to the marker file. */
  mark: (label: string) => string;
  /** Writes a file in the project (or at an absolute path). */
  put: (file: string, text: string) => void;
  trustedKeys: () => string[];
}

/** A trusted project (no Gemini hooks) whose home also holds the Claude user settings. */
function project(): TrustProject {
  const p = makeProject({});
  const base = path.dirname(p.dir);
  const marker = path.join(base, 'ran.txt');
  const script = path.join(base, 'mark.sh');
  fs.writeFileSync(script, '#!/bin/sh\ncat >/dev/null\nprintf "%s\\n" "$2" >> "$1"\n', { mode: 0o755 });
  const env = { ...p.env, HOME: p.home };
  for (const k of ['MM_CONFIG', 'HOOKLINE_MODEL']) delete env[k];
  return {
    ...p,
    env,
    ran: () => (fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8').split('\n').filter(Boolean) : []),
    mark: (label) => `${sq(script)} ${sq(marker)} ${label}`,
    put: (file, text) => {
      const f = path.resolve(p.dir, file);
      fs.mkdirSync(path.dirname(f), { recursive: true });
      fs.writeFileSync(f, text);
    },
    trustedKeys: () => JSON.parse(fs.readFileSync(path.join(p.home, '.gemini', 'trusted_hooks.json'), 'utf8'))[p.dir] ?? [],
  };
}

/** The key `hookline trust` records for the workspace hook running `command`, from the library. */
const keyOf = (p: TrustProject, command: string) =>
  [claudeSystem, mmSystem, spatialAgentSystem, copilotSystem]
    .flatMap((s) => s.workspaceHooks(p.dir, p.env))
    .find((h) => h.command === command)?.key;

const fire = (p: TrustProject, c: DialectCase, env = p.env, extra: string[] = []) =>
  runCli(['fire', c.event, '--dialect', c.dialect, '--cwd', p.dir, ...extra, '--input', '-'], { env, input: c.input });

const agent = (p: TrustProject, env = p.env, extra: string[] = []) => runCli(['agent', '-p', 'hi', '--cwd', p.dir, ...extra], { env });

for (const c of CASES) {
  describe(`${c.dialect} workspace hooks`, () => {
    test('trusted hooks run; a changed command is held back until `hookline trust`, and `trust --check` lists it', async () => {
      const p = project();
      p.put(c.file, c.write([p.mark('one'), p.mark('other')]));
      let t = await runCli(['trust', p.dir], { env: p.env });
      assert.equal(t.code, 0, t.stderr);
      assert.equal(
        t.stdout,
        `trusted folder ${p.dir}\ntrusted 2 new or changed hook(s):\n  - ${c.file} (${c.event}): ${p.mark('one')}\n${c.review}  - ${c.file} (${c.event}): ${p.mark('other')}\n${c.review}`,
      );
      // Claude Code's settings are read by Copilot CLI too: their hooks are trusted under both dialects' keys, listed once.
      assert.deepEqual(
        p.trustedKeys().filter((k) => k.startsWith(`v2:${c.dialect}:`)),
        [keyOf(p, p.mark('one')), keyOf(p, p.mark('other'))],
      );
      assert.equal(p.trustedKeys().length, c.dialect === 'claude' ? 4 : 2);

      let r = await fire(p, c);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, '');
      // Claude Code hooks run in parallel: their order is not fixed.
      assert.deepEqual(p.ran().sort(), ['one', 'other']);

      // A pull changes one command: it does not run, the file's other hook does.
      p.put(c.file, c.write([p.mark('two'), p.mark('other')]));
      r = await fire(p, c);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(p.ran().sort(), ['one', 'other', 'other']);
      assert.equal(
        r.stderr,
        `hookline: new or changed dialect workspace hook(s) held back until trusted (run: hookline trust ${JSON.stringify(p.dir)}):\n  - ${c.file} (${c.event}): ${p.mark('two')}: command was ${JSON.stringify(p.mark('one'))}\n${c.review}`,
      );

      t = await runCli(['trust', '--check', p.dir], { env: p.env });
      assert.equal(t.code, 1);
      assert.equal(
        t.stdout,
        `${p.dir}: folder trusted\nuntrusted or changed hooks:\n  - ${c.file} (${c.event}): ${p.mark('two')}: command was ${JSON.stringify(p.mark('one'))}\n${c.review}`,
      );

      t = await runCli(['trust'], { env: p.env, cwd: p.dir });
      assert.equal(t.code, 0, t.stderr);
      assert.match(t.stdout, /trusted 1 new or changed hook\(s\):\n/);
      assert.equal((await runCli(['trust', '--check', p.dir], { env: p.env })).code, 0);
      r = await fire(p, c);
      assert.equal(r.stderr, '');
      assert.deepEqual(p.ran().slice(3).sort(), ['other', 'two']);
    });

    test('GEMINI_CLI_TRUST_WORKSPACE=true: a new hook runs with a warning and is recorded', async () => {
      const p = project();
      p.put(c.file, c.write([p.mark('new')]));
      const r = await fire(p, c, { ...p.env, GEMINI_CLI_TRUST_WORKSPACE: 'true' });
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(p.ran(), ['new']);
      assert.match(r.stderr, /new or changed dialect workspace hooks in .* \(they will run\):\n {2}- /);
      assert.ok(r.stderr.includes(p.mark('new')), r.stderr);
      assert.deepEqual(p.trustedKeys(), [keyOf(p, p.mark('new'))]);
      // Recorded: in the folder trusted by hand it now runs without a word.
      const again = await fire(p, c);
      assert.equal(again.stderr, '');
      assert.deepEqual(p.ran(), ['new', 'new']);
    });

    test('folder trust off in the user settings: the same as assumed trust', async () => {
      const p = project();
      fs.writeFileSync(path.join(p.home, '.gemini', 'trustedFolders.json'), '{}');
      fs.writeFileSync(path.join(p.home, '.gemini', 'settings.json'), JSON.stringify({ security: { folderTrust: { enabled: false } } }));
      p.put(c.file, c.write([p.mark('new')]));
      const r = await fire(p, c);
      assert.deepEqual(p.ran(), ['new']);
      assert.match(r.stderr, /\(they will run\)/);
      assert.deepEqual(p.trustedKeys(), [keyOf(p, p.mark('new'))]);
    });

    test(`a file outside the project named with ${c.configFlag} is the user's own: never held back`, async () => {
      const p = project();
      const file = path.join(path.dirname(p.dir), `mine-${path.basename(c.file)}`);
      p.put(file, c.write([p.mark('mine')]));
      const r = await fire(p, c, p.env, [c.configFlag, file]);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(p.ran(), ['mine']);
      assert.equal(r.stderr, '');
      assert.equal(fs.existsSync(path.join(p.home, '.gemini', 'trusted_hooks.json')) ? p.trustedKeys().length : 0, 0);
    });
  });
}

describe('hookline agent', () => {
  /** A trusted project with all three dialect files, two hooks each, trusted with `hookline trust`. */
  async function trustedAll(): Promise<TrustProject> {
    const p = project();
    for (const c of CASES) p.put(c.file, c.write([p.mark(`${c.dialect}-a`), p.mark(`${c.dialect}-b`)]));
    const t = await runCli(['trust', p.dir], { env: p.env });
    assert.equal(t.code, 0, t.stderr);
    return p;
  }

  test("trusted hooks run; changed ones are held back (their files' other hooks still run) until trusted again", async () => {
    const p = await trustedAll();
    let r = await agent(p);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(p.ran().sort(), [
      'claude-a',
      'claude-b',
      'copilot-a',
      'copilot-b',
      'mm-a',
      'mm-b',
      'spatialagent-a',
      'spatialagent-b',
    ]);

    for (const c of CASES) p.put(c.file, c.write([p.mark(`${c.dialect}-changed`), p.mark(`${c.dialect}-b`)]));
    fs.rmSync(path.join(path.dirname(p.dir), 'ran.txt'));
    r = await agent(p);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(p.ran().sort(), ['claude-b', 'copilot-b', 'mm-b', 'spatialagent-b']);
    // Each hook system reports its own held-back hooks.
    for (const line of [
      `  - agent.yaml (preGeneration): ${p.mark('mm-changed')}: command was ${JSON.stringify(p.mark('mm-a'))}\n${CASES[0].review}`,
      `  - ${path.join('.claude', 'settings.json')} (UserPromptSubmit): ${p.mark('claude-changed')}: command was ${JSON.stringify(p.mark('claude-a'))}\n`,
      `  - ${path.join('.spatialagent', 'settings.json')} (Start): ${p.mark('spatialagent-changed')}: command was ${JSON.stringify(p.mark('spatialagent-a'))}\n${CASES[1].review}`,
      `  - ${path.join('.github', 'hooks', 'hooks.json')} (userPromptSubmitted): ${p.mark('copilot-changed')}: command was ${JSON.stringify(p.mark('copilot-a'))}\n${CASES[3].review}`,
    ]) {
      assert.ok(
        r.stderr.includes(
          `new or changed dialect workspace hook(s) held back until trusted (run: hookline trust ${JSON.stringify(p.dir)}):\n${line}`,
        ),
        r.stderr,
      );
    }

    assert.equal((await runCli(['trust', p.dir], { env: p.env })).code, 0);
    fs.rmSync(path.join(path.dirname(p.dir), 'ran.txt'));
    r = await agent(p);
    assert.doesNotMatch(r.stderr, /held back/);
    assert.deepEqual(p.ran().sort(), [
      'claude-b',
      'claude-changed',
      'copilot-b',
      'copilot-changed',
      'mm-b',
      'mm-changed',
      'spatialagent-b',
      'spatialagent-changed',
    ]);
  });

  test(".claude/settings.local.json is a workspace file too; ~/.claude/settings.json is the user's own", async () => {
    const p = await trustedAll();
    const claude = CASES[2];
    p.put(path.join('.claude', 'settings.local.json'), claude.write([p.mark('local')]));
    p.put(path.join(p.home, '.claude', 'settings.json'), claude.write([p.mark('user')]));
    const r = await agent(p);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(p.ran().includes('user'));
    assert.ok(!p.ran().includes('local'));
    assert.match(
      r.stderr,
      /held back until trusted \(run: hookline trust "[^"]+"\):\n {2}- \.claude\/settings\.local\.json \(UserPromptSubmit\): /,
    );
  });

  test('GEMINI_CLI_TRUST_WORKSPACE=true: changed hooks run with a warning and are recorded', async () => {
    const p = await trustedAll();
    p.put('agent.yaml', CASES[0].write([p.mark('mm-changed')]));
    const r = await agent(p, { ...p.env, GEMINI_CLI_TRUST_WORKSPACE: 'true' });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(p.ran().includes('mm-changed'));
    assert.match(r.stderr, /new or changed dialect workspace hooks in .* \(they will run\):\n {2}- agent\.yaml \(preGeneration\): /);
    assert.ok(p.trustedKeys().includes(keyOf(p, p.mark('mm-changed'))!));
  });

  test("--mm-config and $MM_CONFIG name the user's own file (outside the project): not held back", async () => {
    const p = project();
    const file = path.join(path.dirname(p.dir), 'mine.yaml');
    p.put(file, CASES[0].write([p.mark('explicit')]));
    let r = await agent(p, p.env, ['--mm-config', file]);
    assert.equal(r.code, 0, r.stderr);
    r = await agent(p, { ...p.env, MM_CONFIG: file });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(p.ran(), ['explicit', 'explicit']);
    assert.doesNotMatch(r.stderr, /held back/);
  });
});

describe('hookline list', () => {
  test('lists the dialect hooks with their source, file and trust; the summary counts them by their own event names', async () => {
    const p = makeProject({ project: { hooks: { BeforeTool: [{ hooks: [{ type: 'command', name: 'guard', command: 'true' }] }] } } });
    const env = { ...p.env, HOME: p.home };
    delete env.MM_CONFIG;
    fs.writeFileSync(path.join(p.dir, 'agent.yaml'), CASES[0].write(['echo mm']));
    fs.mkdirSync(path.join(p.dir, '.claude'));
    fs.writeFileSync(
      path.join(p.dir, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo cc' }] }] } }),
    );
    assert.equal((await runCli(['trust', p.dir], { env })).code, 0);
    fs.mkdirSync(path.join(p.dir, '.spatialagent'));
    fs.writeFileSync(
      path.join(p.dir, '.spatialagent', 'settings.json'),
      JSON.stringify({ hooks: { PreAct: [{ type: 'bash', command: 'echo sa', matcher: { code_type: 'bash' } }] } }),
    );

    const r = await runCli(['list', '--json', '--cwd', p.dir], { env });
    assert.equal(r.code, 0, r.stderr);
    const out = r.json();
    assert.deepEqual(out.hooks, [
      {
        event: 'BeforeTool',
        matcher: null,
        name: 'guard',
        command: 'true',
        source: 'project',
        file: path.join(p.dir, '.gemini', 'settings.json'),
        enabled: true,
        trusted: true,
        details: [],
        reads: [],
      },
      {
        event: 'PreToolUse',
        matcher: 'Bash',
        name: 'echo cc',
        command: 'echo cc',
        source: 'claude',
        file: path.join(p.dir, '.claude', 'settings.json'),
        enabled: true,
        trusted: true,
        details: [],
        reads: [],
      },
      {
        event: 'preGeneration',
        matcher: null,
        name: 'echo mm',
        command: 'echo mm',
        source: 'mm',
        file: path.join(p.dir, 'agent.yaml'),
        enabled: true,
        trusted: true,
        details: ['timeout: 10000 ms', 'onError: warn'],
        reads: [],
      },
      {
        event: 'PreAct',
        matcher: '{"code_type":"bash"}',
        name: 'echo sa',
        command: 'echo sa',
        source: 'spatialagent',
        file: path.join(p.dir, '.spatialagent', 'settings.json'),
        enabled: true,
        trusted: false,
        details: ['timeoutSeconds: 30'],
        reads: [],
      },
    ]);
    // The summary counts what would run, and says the held-back PreAct hook is not counted.
    assert.equal(out.summary, 'hooks: BeforeTool×1 PreToolUse×1 preGeneration×1 — not counted: 1 untrusted');
    assert.match(
      r.stderr,
      /held back until trusted \(run: hookline trust "[^"]+"\):\n {2}- \.spatialagent\/settings\.json \(PreAct \{"code_type":"bash"\}\): echo sa: new hook\n {6}timeoutSeconds: 30\n$/,
    );

    const text = await runCli(['list', '--cwd', p.dir], { env });
    const rows = text.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.trim().split(/\s{2,}/));
    assert.deepEqual(rows.slice(1, -1), [
      ['BeforeTool', '*', 'guard', 'project', 'enabled', 'trusted'],
      ['PreToolUse', 'Bash', 'echo cc', 'claude', 'enabled', 'trusted'],
      ['preGeneration', '*', 'echo mm', 'mm', 'enabled', 'trusted'],
      // Under each hook, its other fields.
      ['timeout: 10000 ms; onError: warn'],
      ['PreAct', '{"code_type":"bash"}', 'echo sa', 'spatialagent', 'enabled', 'untrusted'],
      ['timeoutSeconds: 30'],
    ]);
  });

  test('in an untrusted folder the dialect hooks are listed as untrusted', async () => {
    const p = makeProject({ trusted: false });
    fs.writeFileSync(path.join(p.dir, 'agent.yaml'), CASES[0].write(['echo mm']));
    const env = { ...p.env, HOME: p.home };
    delete env.MM_CONFIG;
    const r = await runCli(['list', '--json', '--cwd', p.dir], { env });
    assert.deepEqual(
      r.json().hooks.map((h: { source: string; trusted: boolean }) => [h.source, h.trusted]),
      [['mm', false]],
    );
  });
});

describe('agents called through mmConfigs', () => {
  test('a called agent configuration in the project is workspace configuration: trusted with the folder, held back when it changes', async () => {
    const p = makeProject({});
    const marks = path.join(p.dir, 'ran.txt');
    const hook = (label: string) => `echo ${label} >> ${sq(marks)}`;
    fs.writeFileSync(path.join(p.dir, 'agent.yaml'), `mmConfigs:\n  expert: ./expert.yaml\n`);
    fs.writeFileSync(path.join(p.dir, 'expert.yaml'), `hooks:\n  preGeneration:\n    - command: ${JSON.stringify(hook('trusted'))}\n`);
    const script = path.join(p.dir, 'script.jsonl');
    fs.writeFileSync(script, '{"text": "an answer"}\n{"text": "another"}\n');
    const trust = await runCli(['trust', p.dir], { env: p.env });
    assert.equal(trust.code, 0, trust.stderr);
    assert.match(trust.stdout, /preGeneration/, 'hookline trust lists the called agent hooks');
    const ask = () => runCli(['agent', '--cwd', p.dir, '--model', `scripted:${script}`, '--ask', 'expert', 'q'], { env: p.env });
    const first = await ask();
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(fs.readFileSync(marks, 'utf8').trim().split('\n'), ['trusted']);
    fs.writeFileSync(path.join(p.dir, 'expert.yaml'), `hooks:\n  preGeneration:\n    - command: ${JSON.stringify(hook('changed'))}\n`);
    const second = await ask();
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(fs.readFileSync(marks, 'utf8').trim().split('\n'), ['trusted'], 'the changed hook did not run');
    assert.match(second.stderr, /held back until trusted/);
  });
});
