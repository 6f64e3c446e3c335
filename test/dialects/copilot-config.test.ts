// Copilot CLI dialect: where its hooks are read from and in what order, both entry formats, and a
// validation problem for every entry that cannot run, each one line naming file, event and hook.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  copilotPlaces,
  copilotWorkspaceHooks,
  loadCopilotConfig,
  parseCopilotFile,
  type CopilotHook,
} from '../../src/dialects/copilot/config.js';
import { copilotEventOf } from '../../src/dialects/copilot/events.js';
import { formatProblem } from '../../src/config/problems.js';
import { dialectProject, tmpDir } from './util.js';

const ctx = (env: NodeJS.ProcessEnv = {}) => ({ file: '/p/.github/hooks/h.json', source: 'workspace' as const, projectDir: '/p', env });
const parse = (v: unknown, env: NodeJS.ProcessEnv = {}) => parseCopilotFile(JSON.stringify(v), ctx(env));
const bash = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', bash: command, ...extra });
const lines = (r: { problems: Parameters<typeof formatProblem>[0][] }) => r.problems.map(formatProblem);

describe('Copilot CLI hooks: files and order', () => {
  test("the user's hooks folder and settings, then the workspace's hooks folder (descending by name), Claude Code's two files, .github/copilot settings", () => {
    const p = dialectProject({
      prefix: 'hookline-copilot-',
      project: {
        '.github/hooks/a.json': { version: 1, hooks: { sessionStart: [bash('echo a')] } },
        '.github/hooks/b.json': { version: 1, hooks: { sessionStart: [bash('echo b')] } },
        '.github/hooks/notes.txt': 'not hooks',
        '.claude/settings.json': { hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'echo claude' }] }] } },
        '.claude/settings.local.json': { hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'echo claude-local' }] }] } },
        '.github/copilot/settings.json': { hooks: { sessionStart: [bash('echo repo-settings')] } },
      },
      home: {
        '.copilot/hooks/u.json': { version: 1, hooks: { sessionStart: [bash('echo user')] } },
        '.claude/settings.json': { hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'echo claude-user' }] }] } },
      },
    });
    const config = loadCopilotConfig({ projectDir: p.dir, env: p.env });
    assert.deepEqual(config.problems, []);
    assert.deepEqual(
      config.hooks.map((h) => [h.command, h.source, h.shape]),
      [
        ['echo user', 'user', 'copilot'],
        ['echo b', 'workspace', 'copilot'],
        ['echo a', 'workspace', 'copilot'],
        ['echo claude', 'workspace', 'claude'],
        ['echo claude-local', 'workspace', 'claude'],
        ['echo repo-settings', 'workspace', 'copilot'],
      ],
    );
    // A hooks folder's files give their hooks COPILOT_HOOK_DIR; settings files do not.
    assert.equal(config.hooks[1].hookDir, path.join(p.dir, '.github', 'hooks'));
    assert.equal(config.hooks[3].hookDir, undefined);
    // `~/.claude/settings.json` is never read.
    assert.ok(!copilotPlaces(p.dir, p.env).some((f) => f.file === path.join(p.home, '.claude', 'settings.json')));
  });

  test("COPILOT_HOME moves ~/.copilot; --config replaces the workspace files but keeps the user's", () => {
    const base = tmpDir('hookline-copilot-');
    const places = copilotPlaces('/proj', { HOME: '/h', COPILOT_HOME: path.join(base, 'ch') }, '/x/mine.json');
    assert.deepEqual(
      places.map((p) => [p.source, p.file]),
      [
        ['user', path.join(base, 'ch', 'settings.json')],
        ['explicit', '/x/mine.json'],
      ],
    );
  });

  test("workspace hooks are what trust sees; those of Claude Code's files are marked shared (listed once, by Claude Code)", () => {
    const p = dialectProject({
      prefix: 'hookline-copilot-',
      project: {
        '.github/hooks/h.json': { version: 1, hooks: { preToolUse: [bash('./guard.sh', { matcher: 'bash' })] } },
        '.claude/settings.json': { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './c.sh' }] }] } },
        'guard.sh': '#!/bin/sh\nexit 0\n',
        'c.sh': '#!/bin/sh\nexit 0\n',
      },
      home: { '.copilot/hooks/u.json': { version: 1, hooks: { preToolUse: [bash('./mine.sh')] } } },
    });
    const hooks = copilotWorkspaceHooks(loadCopilotConfig({ projectDir: p.dir, env: p.env }), p.dir);
    assert.deepEqual(
      hooks.map((h) => [h.event, h.matcher, h.command, h.shared ?? false]),
      [
        ['preToolUse', 'bash', './guard.sh', false],
        ['PreToolUse', 'Bash', './c.sh', true],
      ],
    );
    assert.ok(hooks.every((h) => h.source === 'copilot' && typeof h.key === 'string' && h.key.length > 0));
    // Every field of the entry is in the fingerprint: a longer timeout is another hook.
    const other = dialectProject({
      prefix: 'hookline-copilot-',
      project: {
        '.github/hooks/h.json': { version: 1, hooks: { preToolUse: [bash('./guard.sh', { matcher: 'bash', timeoutSec: 99 })] } },
        'guard.sh': '#!/bin/sh\nexit 0\n',
      },
    });
    const changed = copilotWorkspaceHooks(loadCopilotConfig({ projectDir: other.dir, env: other.env }), other.dir);
    assert.ok(changed[0].key);
    assert.notEqual(changed[0].key, hooks[0].key);
    // A script the hook runs that is not there: no key, so it is held back.
    fs.rmSync(path.join(other.dir, 'guard.sh'));
    const missing = copilotWorkspaceHooks(loadCopilotConfig({ projectDir: other.dir, env: other.env }), other.dir);
    assert.equal(missing[0].key, undefined);
  });
});

describe('Copilot CLI hooks: entries', () => {
  test('bash, then command; cwd against the project; env; timeoutSec, its alias timeout, the 30 s default', () => {
    const r = parse({
      version: 1,
      hooks: {
        preToolUse: [
          bash('echo one', { cwd: 'sub', env: { HK: 'x' }, timeoutSec: 5, powershell: 'Write-Output one' }),
          { type: 'command', command: 'echo two', timeout: 7 },
          { bash: 'echo three' },
        ],
      },
    });
    assert.deepEqual(r.problems, []);
    assert.deepEqual(
      r.hooks.map((h) => [h.command, h.cwd, h.env, h.timeoutSeconds, h.path]),
      [
        ['echo one', '/p/sub', { HK: 'x' }, 5, 'hooks.preToolUse[0]'],
        ['echo two', undefined, {}, 7, 'hooks.preToolUse[1]'],
        ['echo three', undefined, {}, 30, 'hooks.preToolUse[2]'],
      ],
    );
  });

  test('a camelCase matcher is a regular expression on the whole Copilot tool name', () => {
    const r = parse({
      version: 1,
      hooks: {
        preToolUse: [
          bash('bash', { matcher: 'bash' }),
          bash('Bash', { matcher: 'Bash' }),
          bash('ba', { matcher: 'ba' }),
          bash('ba.*', { matcher: 'ba.*' }),
          bash('alt', { matcher: 'view|bash' }),
          bash('none'),
        ],
      },
    });
    const picks = (tool: string) => r.hooks.filter((h) => h.matches(tool, tool === 'bash' ? 'Bash' : tool)).map((h) => h.command);
    assert.deepEqual(picks('bash'), ['bash', 'ba.*', 'alt', 'none']);
    assert.deepEqual(picks('view'), ['alt', 'none']);
  });

  test('a Claude-format group matches the Claude name or the Copilot name, whole; "*" and no matcher match every tool', () => {
    const file = { ...ctx(), file: '/p/.claude/settings.json' };
    const r = parseCopilotFile(
      JSON.stringify({
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [{ type: 'command', command: 'Bash' }] },
            { matcher: 'bash', hooks: [{ type: 'command', command: 'bash' }] },
            { matcher: 'Ba', hooks: [{ type: 'command', command: 'Ba' }] },
            { matcher: '*', hooks: [{ type: 'command', command: 'star' }] },
            { hooks: [{ type: 'command', command: 'none' }] },
          ],
        },
      }),
      file,
    );
    assert.deepEqual(r.problems, []);
    assert.ok(r.hooks.every((h: CopilotHook) => h.shape === 'claude' && h.event === 'preToolUse'));
    assert.deepEqual(
      r.hooks.filter((h) => h.matches('bash', 'Bash')).map((h) => h.command),
      ['Bash', 'bash', 'star', 'none'],
    );
    assert.deepEqual(
      r.hooks.filter((h) => h.matches('view', 'Read')).map((h) => h.command),
      ['star', 'none'],
    );
  });

  test('an empty matcher in a group loads nothing from the file, as Copilot CLI; elsewhere it matches no tool, with a warning', () => {
    const r = parse({
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'ok' }] },
          { matcher: '', hooks: [{ type: 'command', command: 'x' }] },
        ],
      },
    });
    assert.deepEqual(r.hooks, []);
    assert.deepEqual(lines(r), [
      'error: /p/.github/hooks/h.json: hooks.PreToolUse[1].matcher: an empty matcher in a matcher group: Copilot CLI loads no hook from this file, and neither does Hookline (leave "matcher" out to match every tool)',
    ]);
    const flat = parse({ hooks: { preToolUse: [bash('x', { matcher: '' })] } });
    assert.equal(flat.hooks.length, 1);
    assert.equal(flat.hooks[0].matches('bash', 'Bash'), false);
    assert.match(lines(flat)[0], /^warning: .*hooks\.preToolUse\[0\]\.matcher: an empty matcher matches no tool/);
  });

  test('every problem is one line naming the file, the event and the hook; the broken entry is left out, the rest load', () => {
    const r = parse({
      version: 2,
      hooks: {
        preToolUse: [
          bash('echo fine'),
          bash('x', { timeoutSec: 'soon' }),
          { type: 'command' },
          { type: 'command', powershell: 'Write-Output x' },
          bash('x', { env: { 'BAD-NAME': 'v' } }),
          bash('x', { env: { OK: 3 } }),
          bash('x', { cwd: '' }),
          bash('x', { onFailure: 'maybe' }),
          bash('x', { matcher: '(' }),
          { type: 'wasm', bash: 'x' },
          bash('x', { extra: true }),
        ],
        sessionStart: [{ type: 'prompt', prompt: 'hello' }],
        preTolUse: [bash('x')],
        subagentStart: [bash('x')],
        postToolUse: 'echo',
      },
    });
    assert.deepEqual(lines(r), [
      'warning: /p/.github/hooks/h.json: version: version 2: Copilot CLI reads version 1',
      'error: /p/.github/hooks/h.json: hooks.preToolUse[1].timeoutSec: "timeoutSec" must be a positive number of seconds, got "soon"',
      'error: /p/.github/hooks/h.json: hooks.preToolUse[2]: missing "bash" (or "command"): the command to run',
      'warning: /p/.github/hooks/h.json: hooks.preToolUse[3]: only a "powershell" command: on this system hooks run with bash, so it never runs (add "bash")',
      'error: /p/.github/hooks/h.json: hooks.preToolUse[4].env: "BAD-NAME" is not a variable name',
      'error: /p/.github/hooks/h.json: hooks.preToolUse[5].env.OK: must be a string, got a number',
      'error: /p/.github/hooks/h.json: hooks.preToolUse[6].cwd: "cwd" must be a folder\'s path, got an empty string',
      'error: /p/.github/hooks/h.json: hooks.preToolUse[7].onFailure: "onFailure" must be "block" (fail closed) or left out, got "maybe"',
      'warning: /p/.github/hooks/h.json: hooks.preToolUse[8].matcher: "(" is not a regular expression Copilot CLI can use (/^(?:()$/: Unterminated group): this hook never runs',
      'error: /p/.github/hooks/h.json: hooks.preToolUse[9].type: unknown hook type "wasm"; expected "command" or "http"',
      'warning: /p/.github/hooks/h.json: hooks.preToolUse[10].extra: unknown field "extra" (ignored)',
      'warning: /p/.github/hooks/h.json: hooks.sessionStart[0].type: a "prompt" hook submits a prompt when an interactive session starts: Hookline does not run it',
      'warning: /p/.github/hooks/h.json: hooks.preTolUse: unknown event "preTolUse" (did you mean "preToolUse"?): its hooks never run',
      "warning: /p/.github/hooks/h.json: hooks.subagentStart: subagentStart: Hookline's agent has no moment for it (its hand-offs are not Copilot's task subagents): its hooks never run",
      'error: /p/.github/hooks/h.json: hooks.postToolUse: "postToolUse" must be an array of hooks, got a string',
    ]);
    assert.deepEqual(
      r.hooks.map((h) => h.path),
      ['hooks.preToolUse[0]', 'hooks.preToolUse[8]', 'hooks.preToolUse[10]', 'hooks.subagentStart[0]'],
    );
  });

  test('a file that is not JSON, or not an object, loads no hook and says so once', () => {
    assert.deepEqual(lines(parseCopilotFile('{"hooks": ', ctx())).length, 1);
    assert.match(
      lines(parseCopilotFile('{"hooks": ', ctx()))[0],
      /^error: \/p\/\.github\/hooks\/h\.json: .*\(no hook from this file is loaded\)$/,
    );
    assert.deepEqual(lines(parseCopilotFile('[]', ctx())), [
      'error: /p/.github/hooks/h.json: must be a JSON object with "hooks", got an array',
    ]);
  });

  test('disableAllHooks: true turns off its own file only', () => {
    const r = parse({ disableAllHooks: true, hooks: { preToolUse: [bash('x')] } });
    assert.equal(r.disabled, true);
    assert.deepEqual(r.hooks, []);
  });

  test('http hooks: https, or loopback with COPILOT_HOOK_ALLOW_LOCALHOST=1; never plain http elsewhere, never credentials', () => {
    const http = (url: string) => ({ type: 'http', url });
    const r = parse({
      hooks: {
        preToolUse: [
          http('https://policy.example/hook'),
          http('http://policy.example/hook'),
          http('http://127.0.0.1:9/h'),
          http('https://u:p@x.example/'),
        ],
      },
    });
    assert.deepEqual(
      r.hooks.map((h) => [h.type, h.command]),
      [['http', 'https://policy.example/hook']],
    );
    assert.deepEqual(lines(r), [
      'error: /p/.github/hooks/h.json: hooks.preToolUse[1].url: "http://policy.example/hook" must be an https:// URL (Copilot CLI posts to http:// only on this machine)',
      'warning: /p/.github/hooks/h.json: hooks.preToolUse[2].url: "http://127.0.0.1:9/h" is on this machine: Copilot CLI skips it unless COPILOT_HOOK_ALLOW_LOCALHOST=1, and so does Hookline',
      'error: /p/.github/hooks/h.json: hooks.preToolUse[3].url: the URL must not carry credentials',
    ]);
    const allowed = parse({ hooks: { preToolUse: [http('http://127.0.0.1:9/h')] } }, { COPILOT_HOOK_ALLOW_LOCALHOST: '1' });
    assert.deepEqual(allowed.problems, []);
    assert.equal(allowed.hooks[0].command, 'http://127.0.0.1:9/h');
  });

  test("event names: camelCase are Copilot's shape, PascalCase Claude Code's, for the same events", () => {
    assert.deepEqual(copilotEventOf('preToolUse'), { event: 'preToolUse', shape: 'copilot' });
    assert.deepEqual(copilotEventOf('PreToolUse'), { event: 'preToolUse', shape: 'claude' });
    assert.deepEqual(copilotEventOf('Stop'), { event: 'agentStop', shape: 'claude' });
    assert.deepEqual(copilotEventOf('UserPromptSubmit'), { event: 'userPromptSubmitted', shape: 'claude' });
    assert.equal(copilotEventOf('BeforeTool'), undefined);
    assert.equal(copilotEventOf('toString'), undefined);
  });
});
