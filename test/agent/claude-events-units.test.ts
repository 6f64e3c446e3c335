// Units behind Claude Code's events in the agent: context files, settings watching, model error
// kinds, replaced tool output, PermissionRequest's aggregation, and every known event validating.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findContextFiles, imports, withContextFiles } from '../../src/agent/context-files.js';
import { ConfigWatch } from '../../src/agent/config-watch.js';
import { modelErrorKind } from '../../src/agent/model-errors.js';
import { toolOutputText } from '../../src/dialects/claude/effects.js';
import { aggregateClaude, readClaudeRun } from '../../src/dialects/claude/output.js';
import { CLAUDE_EVENTS, UNSUPPORTED_CLAUDE_EVENTS } from '../../src/dialects/claude/events.js';
import { parseClaudeSettings } from '../../src/dialects/claude/index.js';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-ctx-'));

describe('context files', () => {
  test('home first, then the project from its git root down; a linked file once; nothing of an untrusted workspace', () => {
    const base = tmp();
    const home = path.join(base, 'home');
    const root = path.join(base, 'repo');
    const sub = path.join(root, 'pkg');
    fs.mkdirSync(path.join(home, '.gemini'), { recursive: true });
    fs.mkdirSync(path.join(root, '.git'), { recursive: true });
    fs.mkdirSync(path.join(sub, '.claude'), { recursive: true });
    fs.writeFileSync(path.join(home, '.gemini', 'GEMINI.md'), 'global');
    fs.writeFileSync(path.join(root, 'AGENTS.md'), 'root agents');
    fs.symlinkSync(path.join(root, 'AGENTS.md'), path.join(root, 'CLAUDE.md'));
    fs.writeFileSync(path.join(sub, 'GEMINI.md'), 'pkg gemini');
    fs.writeFileSync(path.join(sub, '.claude', 'CLAUDE.md'), 'pkg claude');
    fs.writeFileSync(path.join(base, 'AGENTS.md'), 'above the git root');
    const user = { gemini: path.join(home, '.gemini'), claude: path.join(home, '.claude') };
    const found = findContextFiles(sub, user, true);
    assert.deepEqual(
      found.map((f) => [path.relative(base, f.file), f.scope, f.text]),
      [
        ['home/.gemini/GEMINI.md', 'User', 'global'],
        ['repo/AGENTS.md', 'Project', 'root agents'],
        ['repo/pkg/GEMINI.md', 'Project', 'pkg gemini'],
        ['repo/pkg/.claude/CLAUDE.md', 'Project', 'pkg claude'],
      ],
    );
    assert.deepEqual(
      findContextFiles(sub, user, false).map((f) => f.text),
      ['global'],
    );
    const system = withContextFiles('base', found.slice(0, 1));
    assert.equal(system, `base\n\n--- Context from: ${found[0].file} ---\nglobal\n--- End of Context from: ${found[0].file} ---`);
    assert.equal(withContextFiles('base', []), 'base');
  });
});

describe('context file imports', () => {
  test('@path outside code; an email is no import; trailing punctuation dropped', () => {
    const text = [
      'See @docs/style.md, and @./rules.md.',
      'Mail me at me@example.com; `@not-this.md` is code.',
      '```',
      '@inside-a-fence.md',
      '```',
      '@~/notes.md',
    ].join('\n');
    assert.deepEqual(imports(text), ['docs/style.md', './rules.md', '~/notes.md']);
  });

  test('a project file imports only inside the project (5 deep at most); each once', () => {
    const base = tmp();
    const home = path.join(base, 'home');
    const proj = path.join(base, 'proj');
    fs.mkdirSync(path.join(proj, 'docs'), { recursive: true });
    fs.mkdirSync(home, { recursive: true });
    fs.writeFileSync(path.join(base, 'outside.md'), 'outside');
    fs.writeFileSync(path.join(proj, 'CLAUDE.md'), 'Rules: @docs/a.md @../outside.md @docs/a.md');
    fs.writeFileSync(path.join(proj, 'docs', 'a.md'), 'a, then @b.md');
    fs.writeFileSync(path.join(proj, 'docs', 'b.md'), 'b, then @a.md');
    const user = { gemini: path.join(home, '.gemini'), claude: path.join(home, '.claude') };
    assert.deepEqual(
      findContextFiles(proj, user, true).map((f) => [path.relative(base, f.file), f.reason, f.parent && path.relative(base, f.parent)]),
      [
        ['proj/CLAUDE.md', 'session_start', undefined],
        ['proj/docs/a.md', 'include', 'proj/CLAUDE.md'],
        ['proj/docs/b.md', 'include', 'proj/docs/a.md'],
      ],
    );
  });
});

describe('settings watch', () => {
  test('each change reported once, a removal too; unchanged files (or the same text written again) never', () => {
    const dir = tmp();
    const a = path.join(dir, 'a.json');
    const b = path.join(dir, 'b.json');
    fs.writeFileSync(a, '{}');
    fs.writeFileSync(b, '{}');
    const w = new ConfigWatch<{ file: string }>();
    w.watch([{ file: a }, { file: b }, { file: a }]);
    assert.deepEqual(w.changed(), []);
    fs.writeFileSync(a, '{"hooks":{}}');
    assert.deepEqual(w.changed(), [{ file: a }]);
    assert.deepEqual(w.changed(), []);
    fs.writeFileSync(a, '{"hooks":{}}');
    assert.deepEqual(w.changed(), [], 'written again with the same text');
    fs.rmSync(b);
    assert.deepEqual(w.changed(), [{ file: b }]);
  });
});

describe('Claude Code outputs in the agent', () => {
  test('model errors by HTTP status; updatedToolOutput as the text the model reads', () => {
    assert.deepEqual(
      [429, 401, 404, 400, 503, 529, undefined].map((statusCode) => modelErrorKind(Object.assign(new Error('x'), { statusCode }))),
      ['rate_limit', 'authentication_failed', 'model_not_found', 'invalid_request', 'server_error', 'overloaded', 'unknown'],
    );
    assert.equal(toolOutputText('plain'), 'plain');
    assert.equal(toolOutputText({ stdout: 'out', stderr: 'err', interrupted: false }), 'out\nerr');
    assert.equal(toolOutputText({ type: 'text', file: { filePath: '/x', content: 'body' } }), 'body');
    assert.equal(
      toolOutputText([
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ]),
      'a\nb',
    );
    assert.equal(toolOutputText({ n: 1 }), '{"n":1}');
  });

  test('PermissionRequest: a deny wins over an allow; exit 2 decides nothing; PermissionDenied retry', () => {
    const run = (hookSpecificOutput: Record<string, unknown>) => ({
      command: 'x',
      where: 'settings.json',
      reading: { response: { hookSpecificOutput: { hookEventName: 'PermissionRequest', ...hookSpecificOutput } } },
    });
    const allow = run({ decision: { behavior: 'allow', updatedInput: { command: 'ls' } } });
    const deny = run({ decision: { behavior: 'deny', message: 'no', interrupt: true } });
    assert.deepEqual(aggregateClaude('PermissionRequest', [allow]).output.permission, {
      behavior: 'allow',
      updatedInput: { command: 'ls' },
    });
    assert.deepEqual(aggregateClaude('PermissionRequest', [allow, deny]).output.permission, {
      behavior: 'deny',
      message: 'no',
      interrupt: true,
    });
    assert.deepEqual(aggregateClaude('PermissionRequest', [deny, allow]).output.permission?.behavior, 'deny');
    const exit2 = readClaudeRun('PermissionRequest', { exitCode: 2, stdout: '', stderr: 'nope', durationMs: 1 }, 5);
    assert.deepEqual(exit2, { format: 'exit2' });
    const retry = aggregateClaude('PermissionDenied', [
      { command: 'x', where: 'w', reading: { response: { hookSpecificOutput: { hookEventName: 'PermissionDenied', retry: true } } } },
    ]);
    assert.equal(retry.output.retry, true);
  });

  test('validate: every event Hookline fires is valid; the ones it never fires are warnings naming the event, never errors', () => {
    const hooks = Object.fromEntries(
      [...CLAUDE_EVENTS, ...UNSUPPORTED_CLAUDE_EVENTS].map((e) => [e, [{ hooks: [{ type: 'command', command: 'x' }] }]]),
    );
    const r = parseClaudeSettings(JSON.stringify({ hooks }), 'settings.json', 'project');
    assert.deepEqual(
      r.problems.map((p) => [p.severity, p.path]),
      UNSUPPORTED_CLAUDE_EVENTS.map((e) => ['warning', `hooks.${e}`]),
    );
    for (const p of r.problems) assert.match(p.message, /never fired by Hookline's agent/);
    assert.ok(UNSUPPORTED_CLAUDE_EVENTS.includes('CwdChanged'), 'the agent never changes its working directory');
  });
});
