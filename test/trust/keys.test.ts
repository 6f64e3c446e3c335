import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { canonicalJson, isTrusted, legacyUnambiguous, type HookFingerprint } from '../../src/trust/keys.js';
import { geminiFingerprint } from '../../src/trust/fingerprints.js';
import { scriptDigest } from '../../src/trust/scripts.js';
import { parseMmConfig, mmHookKey } from '../../src/dialects/mm/config.js';
import { parseClaudeSettings, claudeHookKey } from '../../src/dialects/claude/config.js';
import { parseSaConfig, saHookKey } from '../../src/dialects/spatialagent/config.js';
import type { HookEntry } from '../../src/config/schema.js';

const dir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-keys-'));

function entry(hook: Record<string, unknown>, extra: Partial<HookEntry> = {}): HookEntry {
  return {
    event: 'BeforeTool',
    source: 'project',
    hook: { type: 'command', command: 'true', ...hook } as HookEntry['hook'],
    enabled: true,
    ...extra,
  };
}

describe('fingerprints', () => {
  test('canonical JSON sorts keys and drops undefined members', () => {
    assert.equal(canonicalJson({ b: 1, a: { d: [1, undefined], c: undefined } }), '{"a":{"d":[1,null]},"b":1}');
  });

  test('a Gemini key covers every deciding field and is unambiguous', () => {
    const p = dir();
    const base = geminiFingerprint(entry({ name: 'a', command: 'b:c' }), p).key;
    assert.match(base!, /^v2:gemini:[0-9a-f]{64}$/);
    const variants: Array<[Record<string, unknown>, Partial<HookEntry>]> = [
      [{ name: 'a:b', command: 'c' }, {}],
      [{ name: 'a', command: 'b:c', env: { BASH_ENV: 'evil.sh' } }, {}],
      [{ name: 'a', command: 'b:c', timeout: 5 }, {}],
      [{ name: 'a', command: 'b:c', persistent: true }, {}],
      [{ name: 'a', command: 'b:c', prewarm: true }, {}],
      [{ name: 'a', command: 'b:c' }, { event: 'AfterTool' }],
      [{ name: 'a', command: 'b:c' }, { matcher: 'write_file' }],
      [{ name: 'a', command: 'b:c' }, { sequential: true }],
    ];
    const keys = variants.map(([h, e]) => geminiFingerprint(entry(h, e), p).key);
    assert.equal(new Set([base, ...keys]).size, variants.length + 1, 'every change gives another key');
    // What is only shown does not count.
    assert.equal(geminiFingerprint(entry({ name: 'a', command: 'b:c', description: 'x' }), p).key, base);
  });

  test('an old name:command key counts only when it has a single colon, and only until new keys exist', () => {
    const fp = (legacy: string): HookFingerprint => ({ key: 'v2:gemini:aa', legacy, files: [] });
    assert.equal(legacyUnambiguous('gemini', 'lint:npm run lint'), true);
    assert.equal(legacyUnambiguous('gemini', 'a:b:c'), false);
    assert.equal(legacyUnambiguous('mm', 'mm:preToolCall:a:b'), true);
    assert.equal(isTrusted('gemini', fp('lint:npm test'), new Set(['lint:npm test'])), true);
    assert.equal(isTrusted('gemini', fp('a:b:c'), new Set(['a:b:c'])), false);
    assert.equal(isTrusted('gemini', fp('lint:npm test'), new Set(['lint:npm test', 'v2:gemini:bb'])), false);
    // Another dialect's new keys do not retire Gemini's old ones.
    assert.equal(isTrusted('gemini', fp('lint:npm test'), new Set(['lint:npm test', 'v2:mm:bb'])), true);
    assert.equal(isTrusted('gemini', { problem: 'x missing', legacy: 'l:c', files: [] }, new Set(['l:c'])), false);
  });

  test('each dialect key covers its deciding fields', () => {
    const p = dir();
    const mm = (yaml: string) => {
      const c = parseMmConfig(yaml, path.join(p, 'agent.yaml'));
      return mmHookKey(c.hooks.preToolCall[0], p).key;
    };
    const mmKeys = [
      'hooks:\n  preToolCall:\n    - command: ./x.sh\n',
      'hooks:\n  preToolCall:\n    - command: ./x.sh\n      matcher: bash\n',
      'hooks:\n  preToolCall:\n    - command: ./x.sh\n      timeout: 5s\n',
      'hooks:\n  preToolCall:\n    - command: ./x.sh\n      onError: fail\n',
      'hooks:\n  preToolCall:\n    - command: ./y.sh\n',
    ].map(mm);
    fs.writeFileSync(path.join(p, 'x.sh'), '');
    fs.writeFileSync(path.join(p, 'y.sh'), '');
    const mmKeysNow = [
      'hooks:\n  preToolCall:\n    - command: ./x.sh\n',
      'hooks:\n  preToolCall:\n    - command: ./x.sh\n      matcher: bash\n',
      'hooks:\n  preToolCall:\n    - command: ./x.sh\n      timeout: 5s\n',
      'hooks:\n  preToolCall:\n    - command: ./x.sh\n      onError: fail\n',
      'hooks:\n  preToolCall:\n    - command: ./y.sh\n',
    ].map(mm);
    assert.deepEqual(mmKeys, [undefined, undefined, undefined, undefined, undefined], 'a missing script has no key');
    assert.equal(new Set(mmKeysNow).size, 5);

    const claude = (handler: Record<string, unknown>, matcher?: string, event = 'PreToolUse') => {
      const s = parseClaudeSettings(
        JSON.stringify({
          hooks: { [event]: [{ ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command: 'echo hi', ...handler }] }] },
        }),
        path.join(p, '.claude', 'settings.json'),
        'project',
      );
      return claudeHookKey(s.hooks[0], p).key;
    };
    const cKeys = [
      claude({}),
      claude({ timeout: 5 }),
      claude({ async: true }),
      claude({ shell: 'bash' }),
      claude({}, 'Bash'),
      claude({}, undefined, 'PostToolUse'),
    ];
    assert.equal(new Set(cKeys).size, cKeys.length);
    assert.equal(claude({ statusMessage: 'checking' }), cKeys[0], 'the status message is only shown');

    const sa = (hook: Record<string, unknown>, event = 'PreAct') => {
      const c = parseSaConfig(
        JSON.stringify({ hooks: { [event]: [{ type: 'bash', command: 'echo hi', ...hook }] } }),
        path.join(p, '.spatialagent', 'settings.json'),
      );
      return saHookKey(c.hooks[event as 'PreAct'][0], p).key;
    };
    const sKeys = [
      sa({}),
      sa({ timeout: 3 }),
      sa({ matcher: { code_type: 'bash' } }),
      sa({ matcher: { code_type: 'python' } }),
      sa({ type: 'prompt', command: undefined, prompt: 'echo hi' }),
      sa({}, 'PostAct'),
    ];
    assert.equal(new Set(sKeys).size, sKeys.length);
  });
});

describe('the files a command runs', () => {
  function project(): string {
    const p = dir();
    fs.mkdirSync(path.join(p, '.gemini', 'hooks'), { recursive: true });
    fs.mkdirSync(path.join(p, 'hooks'));
    for (const f of ['.gemini/hooks/x.mjs', '.gemini/hooks/guard.sh', 'hooks/check.py', 'hooks/x.sh', 'hooks/lib.sh'])
      fs.writeFileSync(path.join(p, f), `# ${f}\n`);
    return p;
  }
  const files = (command: string, p: string, vars: Record<string, string> = {}) => {
    const d = scriptDigest(command, { projectDir: p, vars: { GEMINI_PROJECT_DIR: p, ...vars } });
    return d.ok ? Object.keys(d.files).sort() : d.problem;
  };

  test("followed: interpreters' scripts, command words, expanded project paths, other words naming project files", () => {
    const p = project();
    assert.deepEqual(files('node .gemini/hooks/x.mjs', p), ['.gemini/hooks/x.mjs']);
    assert.deepEqual(files('"$GEMINI_PROJECT_DIR/.gemini/hooks/guard.sh"', p), ['.gemini/hooks/guard.sh']);
    assert.deepEqual(files('python3 -u hooks/check.py --fast', p), ['hooks/check.py']);
    assert.deepEqual(files('./hooks/x.sh && bash hooks/lib.sh', p), ['hooks/lib.sh', 'hooks/x.sh']);
    assert.deepEqual(files('env -i FOO=1 node ${DIR}/x.mjs', p, { DIR: '.gemini/hooks' }), ['.gemini/hooks/x.mjs']);
    assert.deepEqual(files('cd hooks && ./x.sh', p), ['hooks/x.sh']);
    // What bash sources before anything: named by an assignment, or by the hook's own env.
    assert.deepEqual(files("BASH_ENV=hooks/lib.sh bash -c 'echo {}'", p), ['hooks/lib.sh']);
    assert.deepEqual(files("bash -c 'echo {}'", p, { BASH_ENV: 'hooks/lib.sh' }), ['hooks/lib.sh']);
    // A module run with -m from the working folder, the packages on its way; a preload as one word.
    assert.deepEqual(files('python3 -u -m hooks.check --fast', p), ['hooks/check.py']);
    fs.writeFileSync(path.join(p, 'hooks', '__init__.py'), '');
    fs.mkdirSync(path.join(p, 'hooks', 'pkg'));
    fs.writeFileSync(path.join(p, 'hooks', 'pkg', '__main__.py'), 'print(1)\n');
    assert.deepEqual(files('python3 -m hooks.pkg', p), ['hooks/__init__.py', 'hooks/pkg/__main__.py']);
    assert.deepEqual(files('node --require=./hooks/lib.sh .gemini/hooks/x.mjs', p), ['.gemini/hooks/x.mjs', 'hooks/lib.sh']);
    // An installed module (none of its name in the project) is not a project file.
    assert.deepEqual(files('python3 -m http.server', p), []);
    // Short options run together, the module joined on or next; Node's preload as Node resolves it.
    assert.deepEqual(files('python3 -um hooks.check', p), ['hooks/__init__.py', 'hooks/check.py']);
    assert.deepEqual(files('python3 -mhooks.check', p), ['hooks/__init__.py', 'hooks/check.py']);
    assert.deepEqual(files('python3 -uB -W ignore -m hooks.check', p), ['hooks/__init__.py', 'hooks/check.py']);
    fs.writeFileSync(path.join(p, 'hooks', 'pre.js'), 'x');
    assert.deepEqual(files('node -r ./hooks/pre .gemini/hooks/x.mjs', p), ['.gemini/hooks/x.mjs', 'hooks/pre.js']);
    assert.deepEqual(files('node --require=./hooks/pre .gemini/hooks/x.mjs', p), ['.gemini/hooks/x.mjs', 'hooks/pre.js']);
    // An --env-file can set NODE_OPTIONS: it is followed.
    assert.deepEqual(files('node --env-file=hooks/lib.sh .gemini/hooks/x.mjs', p), ['.gemini/hooks/x.mjs', 'hooks/lib.sh']);
    // A package preload is found as an import is: not followed.
    assert.deepEqual(files('node -r dotenv/config .gemini/hooks/x.mjs', p), ['.gemini/hooks/x.mjs']);
  });

  test('not followed: sh -c text, run-time values, $(…), globs, redirection targets, files outside the project', () => {
    const p = project();
    const outside = path.join(dir(), 'o.sh');
    fs.writeFileSync(outside, 'x');
    assert.deepEqual(files("sh -c 'bash hooks/x.sh; ./hooks/lib.sh'", p), []);
    // An option of one interpreter is not another's: bash -e still runs a script.
    assert.deepEqual(files('bash -e hooks/x.sh', p), ['hooks/x.sh']);
    assert.deepEqual(files('node $HOME/x.mjs', p), []);
    assert.deepEqual(files('node "$(dirname "$0")/hooks/x.sh"', p), []);
    assert.deepEqual(files('cat hooks/*.sh', p), []);
    assert.deepEqual(files('echo hi > hooks/x.sh', p), []);
    assert.deepEqual(files(`bash '${outside}'`, p), []);
    assert.deepEqual(files('cd "$SOMEWHERE" && ./x.sh', p), []);
  });

  test('a symlink pointing into the project is followed; a missing or unreadable script fails closed; one created later changes the key', () => {
    const p = project();
    const elsewhere = dir();
    fs.symlinkSync(path.join(p, 'hooks', 'x.sh'), path.join(elsewhere, 'link.sh'));
    assert.deepEqual(files(`bash ${path.join(elsewhere, 'link.sh')}`, p), [path.join(elsewhere, 'link.sh')]);
    assert.match(String(files('node .gemini/hooks/gone.mjs', p)), /\.gemini\/hooks\/gone\.mjs is missing/);
    assert.match(String(files('./hooks/gone.sh', p)), /hooks\/gone\.sh is missing/);
    assert.deepEqual(
      files('node ./hooks', p),
      ['hooks/check.py', 'hooks/lib.sh', 'hooks/x.sh'],
      'a folder run as a script: every file in it',
    );
    assert.deepEqual(files('cat ./hooks', p), [], 'a folder as a plain argument runs nothing');
    assert.match(String(files('bash /proc/self/cwd/hooks/x.sh', p)), /reached through \/proc or \/dev\/fd/);
    assert.match(
      String(files('bash ../../../../../../../../../../proc/self/cwd/hooks/x.sh', p)),
      /reached through \/proc/,
      'however spelled',
    );
    // A folder named without a slash, and a file linked into it, are followed too.
    fs.mkdirSync(path.join(p, 'guard'));
    fs.writeFileSync(path.join(p, 'guard', 'index.js'), '// guard\n');
    fs.symlinkSync(path.join(p, 'hooks', 'lib.sh'), path.join(p, 'guard', 'lib.js'));
    assert.deepEqual(files('node guard', p), ['guard/index.js', 'guard/lib.js']);
    if (process.getuid?.() !== 0) {
      fs.chmodSync(path.join(p, 'hooks', 'x.sh'), 0);
      assert.match(String(files('bash hooks/x.sh', p)), /cannot read hooks\/x\.sh/);
    }
  });

  test('a file that did not exist when trusted changes the key once it does; a data file does not', () => {
    const p = project();
    const e = entry({ command: 'bash hooks/x.sh && . hooks/later && cat hooks/later.txt' });
    const before = geminiFingerprint(e, p).key;
    assert.ok(before);
    fs.writeFileSync(path.join(p, 'hooks', 'later.txt'), 'x');
    assert.equal(geminiFingerprint(e, p).key, before, 'what cat reads is data');
    fs.writeFileSync(path.join(p, 'hooks', 'later'), 'x');
    assert.notEqual(geminiFingerprint(e, p).key, before, 'what the shell sources is code');
  });

  test('the key changes with the content of a file it runs', () => {
    const p = project();
    const e = entry({ command: 'node .gemini/hooks/x.mjs' });
    const before = geminiFingerprint(e, p).key;
    fs.appendFileSync(path.join(p, '.gemini', 'hooks', 'x.mjs'), 'process.exit(0)\n');
    assert.notEqual(geminiFingerprint(e, p).key, before);
  });
});
