// Claude Code dialect: settings files, validation problems and matchers.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  compileClaudeMatcher,
  loadClaudeConfig,
  parseClaudeSettings,
  claudeHooksFor,
  DEFAULT_TIMEOUT_SECONDS,
} from '../../src/dialects/claude/index.js';
import { tmpDir } from './util.js';

const cmd = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command, ...extra });
const parse = (settings: unknown) =>
  parseClaudeSettings(typeof settings === 'string' ? settings : JSON.stringify(settings), 'settings.json', 'project');
const problems = (settings: unknown) => parse(settings).problems.map((p) => `${p.severity} ${p.path}: ${p.message}`);

describe('Claude Code settings: validation', () => {
  test('a valid file: hooks with event, matcher, command, timeout in seconds (default 600), path', () => {
    const r = parse({
      permissions: { allow: ['Bash(ls)'] },
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [cmd('a.sh', { timeout: 5 }), cmd('b.sh', { statusMessage: 'checking' })] }],
        Stop: [{ hooks: [cmd('c.sh')] }],
      },
    });
    assert.deepEqual(r.problems, []);
    assert.deepEqual(
      r.hooks.map((h) => [h.event, h.matcher, h.command, h.timeoutSeconds, h.path, h.source]),
      [
        ['PreToolUse', 'Bash', 'a.sh', 5, 'hooks.PreToolUse[0].hooks[0]', 'project'],
        ['PreToolUse', 'Bash', 'b.sh', DEFAULT_TIMEOUT_SECONDS, 'hooks.PreToolUse[0].hooks[1]', 'project'],
        ['Stop', undefined, 'c.sh', 600, 'hooks.Stop[0].hooks[0]', 'project'],
      ],
    );
    assert.equal(r.hooks[1].statusMessage, 'checking');
  });

  test('every problem has file, JSON path and message; the valid hooks still load', () => {
    const r = parse({
      hooks: {
        BeforeTool: [{ hooks: [cmd('x')] }],
        PreTooluse: [],
        CwdChanged: [{ hooks: [cmd('x')] }],
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [cmd('ok.sh'), { type: 'command' }, cmd('t.sh', { timeout: -1 }), cmd('t2.sh', { timeout: '5' }), cmd('', {})],
          },
          {
            matcher: 'Bash',
            hooks: [
              { type: 'http', url: 'http://x' },
              { type: 'prompt', prompt: 'p' },
              { type: 'agent', prompt: 'p' },
              { type: 'mcp_tool', server: 's', tool: 't' },
              { type: 'script' },
              {},
            ],
          },
          { matcher: 5, hooks: [cmd('m.sh')] },
          { hooks: 'nope' },
          { matcher: '*' },
          'string',
        ],
        Stop: { hooks: [] },
      },
    });
    const all = r.problems.map((p) => `${p.file} ${p.severity} ${p.path}: ${p.message}`);
    const expect = [
      'settings.json error hooks.BeforeTool: unknown event "BeforeTool" (did you mean "PreToolUse"?); expected one of PreToolUse, PostToolUse, PostToolUseFailure, UserPromptSubmit, Stop, SubagentStart, SubagentStop, SessionStart, SessionEnd, PreCompact, PostCompact, Notification, PermissionRequest, PermissionDenied, PostToolBatch, StopFailure, InstructionsLoaded, ConfigChange',
      'settings.json error hooks.PreTooluse: unknown event "PreTooluse" (did you mean "PreToolUse"?); expected one of PreToolUse, PostToolUse, PostToolUseFailure, UserPromptSubmit, Stop, SubagentStart, SubagentStop, SessionStart, SessionEnd, PreCompact, PostCompact, Notification, PermissionRequest, PermissionDenied, PostToolBatch, StopFailure, InstructionsLoaded, ConfigChange',
      "settings.json warning hooks.CwdChanged: Claude Code's CwdChanged event is never fired by Hookline's agent (it has no such moment): its hooks never run",
      'settings.json error hooks.PreToolUse[0].hooks[1].command: missing "command" for a command hook',
      'settings.json error hooks.PreToolUse[0].hooks[2].timeout: timeout must be a positive number of seconds, got -1',
      'settings.json error hooks.PreToolUse[0].hooks[3].timeout: timeout must be a positive number of seconds, got "5"',
      'settings.json error hooks.PreToolUse[0].hooks[4].command: "command" must be a non-empty string, got an empty string',
      'settings.json warning hooks.PreToolUse[1].hooks[3]: mcp_tool hooks call a tool on a connected MCP server, and Hookline has no MCP client configured: this hook fails each time it runs (without blocking)',
      'settings.json error hooks.PreToolUse[1].hooks[4].type: unknown hook type "script"; expected "command", "http", "prompt", "agent" or "mcp_tool"',
      'settings.json error hooks.PreToolUse[1].hooks[5].type: missing "type" (expected "command", "http", "prompt", "agent" or "mcp_tool")',
      'settings.json error hooks.PreToolUse[2].matcher: "matcher" must be a string, got a number',
      'settings.json error hooks.PreToolUse[3].hooks: "hooks" must be an array, got a string',
      'settings.json error hooks.PreToolUse[4].hooks: missing "hooks" array',
      'settings.json error hooks.PreToolUse[5]: a matcher group must be an object with a "hooks" array, got a string',
      'settings.json error hooks.Stop: "Stop" must be an array of matcher groups ({"matcher", "hooks"}), got an object',
    ];
    assert.deepEqual(all, expect);
    assert.deepEqual(
      r.hooks.map((h) => [h.type, h.command]),
      [
        ['command', 'ok.sh'],
        ['http', 'http://x'],
        ['prompt', 'p'],
        ['agent', 'p'],
        ['mcp_tool', 's/t'],
      ],
    );
  });

  test('warnings that keep the hook: unknown fields, a timeout that looks like milliseconds, a matcher on an event without one', () => {
    const r = parse({
      hooks: {
        PreToolUse: [{ matcher: 'Bash', extra: 1, hooks: [cmd('a.sh', { timeout: 5000, async: true, once: true, color: 'red' })] }],
        UserPromptSubmit: [{ matcher: 'Bash', hooks: [cmd('u.sh')] }],
      },
    });
    assert.deepEqual(
      r.problems.map((p) => `${p.severity} ${p.path}: ${p.message}`),
      [
        'warning hooks.PreToolUse[0].extra: unknown field "extra" (ignored)',
        'warning hooks.PreToolUse[0].hooks[0].color: unknown field "color" (ignored)',
        'warning hooks.PreToolUse[0].hooks[0].timeout: timeout 5000 is in seconds (about 1.4 hours); Claude Code timeouts are seconds, not milliseconds — for 5000 ms write 5',
        `warning hooks.PreToolUse[0].hooks[0].once: "once" is honoured only for a skill's hooks: in settings files and plugins Claude Code runs this hook every time, and so does Hookline`,
        'warning hooks.UserPromptSubmit[0].matcher: UserPromptSubmit ignores matchers: these hooks run for every UserPromptSubmit',
      ],
    );
    assert.deepEqual(
      r.hooks.map((h) => [h.command, h.timeoutSeconds]),
      [
        ['a.sh', 5000],
        ['u.sh', 600],
      ],
    );
    // The ignored matcher does not filter.
    assert.equal(r.hooks[1].match.test('anything'), true);
  });

  test('"shell": "powershell" off Windows is an error (not loaded); "bash" is the default', () => {
    assert.deepEqual(
      problems({
        hooks: {
          PreToolUse: [{ hooks: [cmd('a', { shell: 'powershell' }), cmd('b', { shell: 'zsh' }), cmd('c', { shell: 'bash' })] }],
        },
      }),
      [
        'error hooks.PreToolUse[0].hooks[0].shell: "shell": "powershell" runs on Windows only; on this system hooks run with bash (write "bash", or leave it out)',
        'error hooks.PreToolUse[0].hooks[1].shell: "shell" must be "bash" or "powershell", got "zsh"',
      ],
    );
    assert.deepEqual(
      parse({ hooks: { PreToolUse: [{ hooks: [cmd('a', { shell: 'powershell' }), cmd('c', { shell: 'bash' })] }] } }).hooks.map(
        (h) => h.command,
      ),
      ['c'],
    );
  });

  test('invalid JSON, a non-object file, a bad "hooks", a bad disableAllHooks', () => {
    assert.match(problems('{"hooks": {')[0], /^error : .+ \(no hook from this file is loaded\)$/);
    assert.deepEqual(problems('[]'), ['error : settings must be a JSON object, got an array']);
    assert.deepEqual(problems({ hooks: [] }), ['error hooks: "hooks" must be an object keyed by event name, got an array']);
    assert.deepEqual(problems({ disableAllHooks: 'yes' }), ['error disableAllHooks: must be true or false, got a string']);
    assert.deepEqual(problems({ model: 'opus' }), []);
  });

  test('an invalid regular expression is an error, and the hook compares the matcher as an exact name', () => {
    const r = parse({ hooks: { PreToolUse: [{ matcher: 'Bash(', hooks: [cmd('a.sh')] }] } });
    assert.equal(r.problems.length, 1);
    assert.equal(r.problems[0].severity, 'error');
    assert.equal(r.problems[0].path, 'hooks.PreToolUse[0].matcher');
    assert.match(r.problems[0].message, /^invalid regular expression \(.+\); it is compared as an exact name instead$/);
    assert.equal(r.hooks[0].match.test('Bash('), true);
    assert.equal(r.hooks[0].match.test('Bash'), false);
  });
});

describe('Claude Code settings: files', () => {
  function setup(files: { user?: unknown; project?: unknown; local?: unknown }) {
    const base = tmpDir('hookline-cc-');
    const dir = path.join(base, 'project');
    const home = path.join(base, 'home');
    const write = (file: string, v: unknown) => {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(v));
    };
    fs.mkdirSync(dir, { recursive: true });
    if (files.user !== undefined) write(path.join(home, '.claude', 'settings.json'), files.user);
    if (files.project !== undefined) write(path.join(dir, '.claude', 'settings.json'), files.project);
    if (files.local !== undefined) write(path.join(dir, '.claude', 'settings.local.json'), files.local);
    return { dir, home, env: { HOME: home } };
  }
  const stop = (...commands: string[]) => ({ hooks: { Stop: [{ hooks: commands.map((c) => cmd(c)) }] } });

  test('user ($HOME), project and local files load in that order, each hook with its file and source', () => {
    const { dir, home, env } = setup({ user: stop('u.sh'), project: stop('p.sh'), local: stop('l.sh') });
    const c = loadClaudeConfig({ projectDir: dir, env });
    assert.deepEqual(
      c.hooks.map((h) => [h.command, h.source, h.file]),
      [
        ['u.sh', 'user', path.join(home, '.claude', 'settings.json')],
        ['p.sh', 'project', path.join(dir, '.claude', 'settings.json')],
        ['l.sh', 'local', path.join(dir, '.claude', 'settings.local.json')],
      ],
    );
    assert.deepEqual(
      c.files.map((f) => [f.source, f.exists]),
      [
        ['user', true],
        ['project', true],
        ['local', true],
      ],
    );
  });

  test('identical commands from several files run once; different ones all run', () => {
    const { dir, env } = setup({
      user: stop('same.sh', 'u.sh'),
      project: stop('same.sh'),
      local: { hooks: { Stop: [{ hooks: [cmd('same.sh', { timeout: 3 })] }, { hooks: [cmd('same.sh')] }] } },
    });
    const c = loadClaudeConfig({ projectDir: dir, env });
    assert.equal(c.hooks.length, 5);
    const run = claudeHooksFor(c, 'Stop', {});
    assert.deepEqual(
      run.map((h) => [h.command, h.source]),
      [
        ['same.sh', 'user'],
        ['u.sh', 'user'],
      ],
    );
  });

  test('--config files replace the project files; the user file still loads', () => {
    const { dir, env } = setup({ user: stop('u.sh'), project: stop('p.sh') });
    const other = path.join(tmpDir(), 'cc.json');
    fs.writeFileSync(other, JSON.stringify(stop('x.sh')));
    const c = loadClaudeConfig({ projectDir: dir, env, files: [other] });
    assert.deepEqual(
      c.hooks.map((h) => [h.command, h.source]),
      [
        ['u.sh', 'user'],
        ['x.sh', 'explicit'],
      ],
    );
  });

  test('disableAllHooks: in the user file every hook is off; in a project file only the project hooks', () => {
    let s = setup({ user: { ...stop('u.sh'), disableAllHooks: true }, project: stop('p.sh') });
    assert.deepEqual(loadClaudeConfig({ projectDir: s.dir, env: s.env }).hooks, []);
    s = setup({ user: stop('u.sh'), project: stop('p.sh'), local: { disableAllHooks: true } });
    assert.deepEqual(
      loadClaudeConfig({ projectDir: s.dir, env: s.env }).hooks.map((h) => h.command),
      ['u.sh'],
    );
  });

  test('missing files are no hooks and no problems', () => {
    const { dir, env } = setup({});
    const c = loadClaudeConfig({ projectDir: dir, env });
    assert.deepEqual([c.hooks, c.problems, c.files.map((f) => f.exists)], [[], [], [false, false, false]]);
  });
});

describe('Claude Code matchers', () => {
  const m = (s: string | undefined) => compileClaudeMatcher(s);

  test('none, "" and "*" match everything', () => {
    for (const s of [undefined, '', '*', '  ']) {
      assert.equal(m(s).kind, 'all');
      assert.equal(m(s).test('Anything'), true);
    }
  });

  test('letters, digits, _, -, spaces, "," and "|" are a list of exact names', () => {
    const x = m('Edit|Write');
    assert.deepEqual([x.kind, x.names], ['names', ['Edit', 'Write']]);
    assert.deepEqual(['Edit', 'Write', 'MultiEdit', 'Edi', 'edit'].map(x.test), [true, true, false, false, false]);
    assert.deepEqual(m('Edit, Write | Bash').names, ['Edit', 'Write', 'Bash']);
    assert.equal(m('Bash').test('BashOutput'), false, 'a plain name is exact, not a substring');
    assert.equal(m('mcp__memory__create_entities').test('mcp__memory__create_entities'), true);
    assert.equal(m('mcp__memory__create_entities').test('mcp__memory__create_entities_v2'), false);
  });

  test('anything else is an unanchored, case-sensitive regular expression', () => {
    const x = m('Notebook.*');
    assert.equal(x.kind, 'regex');
    assert.deepEqual(['NotebookEdit', 'MyNotebookRead', 'notebookedit'].map(x.test), [true, true, false]);
    assert.deepEqual(['mcp__memory__write', 'mcp__fs__read'].map(m('mcp__.*__write').test), [true, false]);
    assert.deepEqual(['Edit', 'Write', 'XWrite'].map(m('^(Edit|Write)$').test), [true, true, false]);
  });

  test('an invalid regular expression compares exactly', () => {
    const x = m('[Bash');
    assert.equal(x.kind, 'exact');
    assert.ok(x.error);
    assert.deepEqual(['[Bash', 'Bash'].map(x.test), [true, false]);
  });

  test('what each event matches on: tool name, source, trigger, notification type, reason, agent type; none for UserPromptSubmit and Stop', () => {
    const c = parse({
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [cmd('tool')] }],
        PostToolUseFailure: [{ matcher: 'Write|Edit', hooks: [cmd('fail')] }],
        SessionStart: [
          { matcher: 'compact', hooks: [cmd('compact')] },
          { matcher: 'startup|resume', hooks: [cmd('start')] },
        ],
        PreCompact: [{ matcher: 'auto', hooks: [cmd('auto')] }],
        Notification: [{ matcher: 'permission_prompt', hooks: [cmd('perm')] }],
        SessionEnd: [{ matcher: 'clear', hooks: [cmd('clear')] }],
        SubagentStop: [{ matcher: 'Explore', hooks: [cmd('explore')] }],
        UserPromptSubmit: [{ matcher: 'nothing', hooks: [cmd('prompt')] }],
      },
    });
    const config = { files: [], hooks: c.hooks, problems: [] };
    const names = (event: Parameters<typeof claudeHooksFor>[1], input: Record<string, unknown>) =>
      claudeHooksFor(config, event, input).map((h) => h.command);
    assert.deepEqual(names('PreToolUse', { tool_name: 'Bash' }), ['tool']);
    assert.deepEqual(names('PreToolUse', { tool_name: 'Read' }), []);
    assert.deepEqual(names('PostToolUseFailure', { tool_name: 'Edit' }), ['fail']);
    assert.deepEqual(names('SessionStart', { source: 'compact' }), ['compact']);
    assert.deepEqual(names('SessionStart', { source: 'resume' }), ['start']);
    assert.deepEqual(names('PreCompact', { trigger: 'manual' }), []);
    assert.deepEqual(names('PreCompact', { trigger: 'auto' }), ['auto']);
    assert.deepEqual(names('Notification', { notification_type: 'idle_prompt' }), []);
    assert.deepEqual(names('Notification', { notification_type: 'permission_prompt' }), ['perm']);
    assert.deepEqual(names('SessionEnd', { reason: 'clear' }), ['clear']);
    assert.deepEqual(names('SubagentStop', { agent_type: 'Explore' }), ['explore']);
    assert.deepEqual(names('UserPromptSubmit', { prompt: 'hi' }), ['prompt']);
    // A missing match field is "": only match-all matchers run.
    assert.deepEqual(names('PreToolUse', {}), []);
  });
});
