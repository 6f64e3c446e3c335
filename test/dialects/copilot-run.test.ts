// Copilot CLI dialect: firing events with real hook processes — each event's input in both shapes,
// the environment, the answers read per event and shape, sequential chains, and the failure rules.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parseCopilotFile, type CopilotConfig } from '../../src/dialects/copilot/config.js';
import { fireCopilot } from '../../src/dialects/copilot/run.js';
import type { CopilotEvent } from '../../src/dialects/copilot/events.js';
import { fx, q, tmpDir } from './util.js';

/** A config of one hooks file in `dir/.github/hooks/h.json` (camelCase) or `.claude/settings.json` (PascalCase). */
function configOf(dir: string, hooks: Record<string, unknown[]>): CopilotConfig {
  const file = path.join(dir, '.github', 'hooks', 'h.json');
  const r = parseCopilotFile(JSON.stringify({ version: 1, hooks }), {
    file,
    source: 'workspace',
    projectDir: dir,
    hookDir: path.dirname(file),
    env: {},
  });
  assert.deepEqual(r.problems, []);
  return { files: [], hooks: r.hooks, problems: [] };
}

const bash = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', bash: command, ...extra });
const reply = (code: number, stdout = '', stderr = '', sleep = '') =>
  bash(`${fx('copilot-reply.sh')} ${code} ${q(stdout)} ${q(stderr)} ${sleep}`);
const json = (v: unknown) => JSON.stringify(v);
const capture = (file: string, out = '') => bash(`${fx('copilot-capture.sh')} ${q(file)} ${q(out)}`);
const read = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));
const bashCall = { toolName: 'bash', toolArgs: { command: 'ls', description: 'list' } };

async function fire(
  event: CopilotEvent,
  hooks: Record<string, unknown[]>,
  fields: Record<string, unknown> = {},
  dir = tmpDir('hookline-copilot-'),
) {
  return fireCopilot(
    configOf(dir, hooks),
    event,
    { sessionId: 's-1', ...fields },
    { projectDir: dir, env: { PATH: process.env.PATH ?? '' } },
  );
}

describe('Copilot CLI hooks: input and environment', () => {
  test("camelCase preToolUse: {sessionId, timestamp (epoch ms), cwd, toolName, toolArgs}; PascalCase: Claude Code's fields and tool name", async () => {
    const dir = tmpDir('hookline-copilot-');
    const before = Date.now();
    const r = await fire(
      'preToolUse',
      {
        preToolUse: [capture(path.join(dir, 'camel.json'))],
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: `${fx('copilot-capture.sh')} ${q(path.join(dir, 'pascal.json'))}` }] },
        ],
      },
      bashCall,
      dir,
    );
    assert.deepEqual(
      r.runs.map((x) => x.exitCode),
      [0, 0],
    );
    const camel = read(path.join(dir, 'camel.json'));
    assert.ok(typeof camel.timestamp === 'number' && camel.timestamp >= before && camel.timestamp <= Date.now());
    assert.deepEqual(
      { ...camel, timestamp: 0 },
      { sessionId: 's-1', timestamp: 0, cwd: dir, toolName: 'bash', toolArgs: { command: 'ls', description: 'list' } },
    );
    const pascal = read(path.join(dir, 'pascal.json'));
    assert.match(pascal.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(
      { ...pascal, timestamp: 0 },
      {
        hook_event_name: 'PreToolUse',
        session_id: 's-1',
        timestamp: 0,
        cwd: dir,
        tool_name: 'Bash',
        tool_input: { command: 'ls', description: 'list' },
      },
    );
  });

  test('postToolUse: toolResult in camelCase, tool_result in snake_case with the Claude tool name (view → Read)', async () => {
    const dir = tmpDir('hookline-copilot-');
    const fields = { toolName: 'view', toolArgs: { path: '/x/a.txt' }, toolResult: { resultType: 'success', textResultForLlm: 'alpha' } };
    await fire(
      'postToolUse',
      {
        postToolUse: [capture(path.join(dir, 'camel.json'))],
        PostToolUse: [{ hooks: [{ type: 'command', command: `${fx('copilot-capture.sh')} ${q(path.join(dir, 'pascal.json'))}` }] }],
      },
      fields,
      dir,
    );
    assert.deepEqual(read(path.join(dir, 'camel.json')).toolResult, { resultType: 'success', textResultForLlm: 'alpha' });
    const pascal = read(path.join(dir, 'pascal.json'));
    assert.equal(pascal.tool_name, 'Read');
    assert.deepEqual(pascal.tool_result, { result_type: 'success', text_result_for_llm: 'alpha' });
  });

  test('permissionRequest is camelCase in both shapes; agentStop keeps stop_hook_active', async () => {
    const dir = tmpDir('hookline-copilot-');
    await fire(
      'permissionRequest',
      { PermissionRequest: [{ hooks: [{ type: 'command', command: `${fx('copilot-capture.sh')} ${q(path.join(dir, 'perm.json'))}` }] }] },
      {
        toolName: 'bash',
        toolInput: { command: 'ls' },
        permissionSuggestions: [],
      },
      dir,
    );
    const perm = read(path.join(dir, 'perm.json'));
    assert.deepEqual(
      { ...perm, timestamp: 0 },
      {
        hookName: 'permissionRequest',
        sessionId: 's-1',
        timestamp: 0,
        cwd: dir,
        toolName: 'bash',
        toolInput: { command: 'ls' },
        permissionSuggestions: [],
      },
    );
    await fire(
      'agentStop',
      { agentStop: [capture(path.join(dir, 'stop.json'))] },
      { transcriptPath: '/t.jsonl', stopReason: 'end_turn', stop_hook_active: false },
      dir,
    );
    const stop = read(path.join(dir, 'stop.json'));
    assert.deepEqual([stop.transcriptPath, stop.stopReason, stop.stop_hook_active], ['/t.jsonl', 'end_turn', false]);
  });

  test("COPILOT_CLI, COPILOT_PROJECT_DIR, CLAUDE_PROJECT_DIR, COPILOT_HOOK_DIR for a hooks folder, the entry's env and cwd; no secrets", async () => {
    const dir = tmpDir('hookline-copilot-');
    fs.mkdirSync(path.join(dir, 'sub'));
    const prev = process.env.SECRET_TOKEN;
    process.env.SECRET_TOKEN = 'hunter2';
    try {
      const file = path.join(dir, 'seen.json');
      const config = configOf(dir, { sessionStart: [{ ...capture(file), cwd: 'sub', env: { HK_ENTRY: 'from-entry' } }] });
      const r = await fireCopilot(config, 'sessionStart', { source: 'new' }, { projectDir: dir });
      assert.equal(r.runs[0].exitCode, 0, r.runs[0].stderr);
      assert.deepEqual(fs.readFileSync(`${file}.env`, 'utf8').trim().split('\n'), [
        `pwd=${path.join(dir, 'sub')}`,
        'COPILOT_CLI=1',
        `COPILOT_PROJECT_DIR=${dir}`,
        `CLAUDE_PROJECT_DIR=${dir}`,
        `COPILOT_HOOK_DIR=${path.join(dir, '.github', 'hooks')}`,
        'HK_ENTRY=from-entry',
        'SECRET_TOKEN=unset',
      ]);
    } finally {
      if (prev === undefined) delete process.env.SECRET_TOKEN;
      else process.env.SECRET_TOKEN = prev;
    }
  });

  test('a matcher picks the hooks that run: camelCase on the Copilot name only', async () => {
    const r = await fire(
      'preToolUse',
      { preToolUse: [reply(0, '', '', ''), { ...reply(0), matcher: 'Bash' }, { ...reply(0), matcher: 'view' }] },
      bashCall,
    );
    assert.equal(r.runs.length, 1);
  });
});

describe('Copilot CLI hooks: answers', () => {
  test('preToolUse deny: the model reads "Denied by preToolUse hook: R", in both shapes; the chain ends there', async () => {
    const dir = tmpDir('hookline-copilot-');
    const r = await fire(
      'preToolUse',
      {
        preToolUse: [
          reply(0, json({ permissionDecision: 'allow', additionalContext: 'seen' })),
          bash(`${fx('copilot-guard.mjs')}`),
          capture(path.join(dir, 'after.json')),
        ],
      },
      { toolName: 'bash', toolArgs: { command: 'rm -rf /' } },
      dir,
    );
    assert.equal(r.output.deny, 'Denied by preToolUse hook: destructive command: rm -rf /');
    assert.equal(r.output.permissionDecision, undefined);
    assert.deepEqual(r.output.contexts, ['seen']);
    assert.deepEqual(
      r.runs.map((x) => x.outcome),
      ['allow', 'deny'],
    );
    assert.equal(fs.existsSync(path.join(dir, 'after.json')), false);
    const claude = await fire(
      'preToolUse',
      { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: fx('copilot-guard.mjs') }] }] },
      { toolName: 'bash', toolArgs: { command: 'rm -rf /' } },
    );
    assert.equal(claude.output.deny, 'Denied by preToolUse hook: destructive command: rm -rf /');
    const fine = await fire('preToolUse', { preToolUse: [bash(fx('copilot-guard.mjs'))] }, bashCall);
    assert.equal(fine.output.deny, undefined);
  });

  test('each preToolUse hook reads the arguments as the earlier one rewrote them (modifiedArgs, updatedInput)', async () => {
    const dir = tmpDir('hookline-copilot-');
    const r = await fire(
      'preToolUse',
      {
        preToolUse: [reply(0, json({ modifiedArgs: { command: 'echo one' } })), capture(path.join(dir, 'second.json'))],
        PreToolUse: [
          {
            hooks: [
              {
                type: 'command',
                command: `${fx('copilot-reply.sh')} 0 ${q(json({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'echo two' } } }))}`,
              },
            ],
          },
        ],
      },
      bashCall,
      dir,
    );
    assert.deepEqual(read(path.join(dir, 'second.json')).toolArgs, { command: 'echo one' });
    assert.deepEqual(r.output.modifiedArgs, { command: 'echo two' });
  });

  test('decision "block" and continue: false on preToolUse are ignored; camelCase events ignore hookSpecificOutput', async () => {
    const ignored = await fire(
      'preToolUse',
      { preToolUse: [reply(0, json({ decision: 'block', reason: 'no', continue: false }))] },
      bashCall,
    );
    assert.equal(ignored.output.deny, undefined);
    const hso = await fire(
      'preToolUse',
      { preToolUse: [reply(0, json({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'nested' } }))] },
      bashCall,
    );
    // camelCase hooks read only Copilot's own fields.
    assert.equal(hso.output.deny, undefined);
  });

  test('userPromptSubmitted: the last context, modifiedPrompt, a block with its reason', async () => {
    const r = await fire(
      'userPromptSubmitted',
      {
        userPromptSubmitted: [
          reply(0, json({ additionalContext: 'one' })),
          reply(0, json({ additionalContext: 'two', modifiedPrompt: 'better' })),
        ],
      },
      { prompt: 'hi' },
    );
    assert.deepEqual([r.output.additionalContext, r.output.modifiedPrompt, r.output.decision], ['two', 'better', undefined]);
    const blocked = await fire(
      'userPromptSubmitted',
      { userPromptSubmitted: [reply(0, json({ decision: 'block', reason: 'not today' }))] },
      { prompt: 'hi' },
    );
    assert.deepEqual([blocked.output.decision, blocked.output.reason], ['block', 'not today']);
  });

  test('postToolUse: contexts in order and modifiedResult; agentStop block; permissionRequest allow and deny', async () => {
    const post = await fire(
      'postToolUse',
      {
        postToolUse: [
          reply(0, json({ additionalContext: 'a' })),
          reply(0, json({ additionalContext: 'b', modifiedResult: { resultType: 'success', textResultForLlm: 'new' } })),
        ],
      },
      { ...bashCall, toolResult: { resultType: 'success', textResultForLlm: 'old' } },
    );
    assert.deepEqual(post.output.contexts, ['a', 'b']);
    assert.deepEqual(post.output.modifiedResult, { resultType: 'success', textResultForLlm: 'new' });
    const stop = await fire('agentStop', { agentStop: [reply(0, json({ decision: 'block', reason: 'keep going' }))] });
    assert.deepEqual([stop.output.decision, stop.output.reason], ['block', 'keep going']);
    const perm = { toolName: 'bash', toolInput: { command: 'ls' }, permissionSuggestions: [] };
    const allow = await fire('permissionRequest', { permissionRequest: [reply(0, json({ behavior: 'allow' }))] }, perm);
    assert.equal(allow.output.behavior, 'allow');
    const deny = await fire(
      'permissionRequest',
      { permissionRequest: [reply(0, json({ behavior: 'allow' })), reply(0, json({ behavior: 'deny', message: 'no' }))] },
      perm,
    );
    assert.deepEqual([deny.output.behavior, deny.output.deny], [undefined, 'Permission denied by a PermissionRequest hook: no']);
  });
});

describe('Copilot CLI hooks: failures', () => {
  test('preToolUse: exit 2 denies with the fixed text; a crash denies (fail closed); a timeout lets the tool run', async () => {
    const exit2 = await fire('preToolUse', { preToolUse: [reply(2, json({ permissionDecision: 'allow' }), 'why')] }, bashCall);
    assert.equal(exit2.output.deny, 'Denied by preToolUse hook: hook exited with code 2');
    const crash = await fire('preToolUse', { preToolUse: [reply(1, '', 'boom')] }, bashCall);
    assert.equal(crash.output.deny, 'Denied by preToolUse hook from ".github/hooks/h.json" (hook errored)');
    assert.deepEqual(crash.output.errors, ['exit code 1: boom']);
    const slow = await fire(
      'preToolUse',
      { preToolUse: [{ ...reply(0, json({ permissionDecision: 'deny' }), '', '3'), timeoutSec: 1 }] },
      bashCall,
    );
    assert.equal(slow.output.deny, undefined);
    assert.deepEqual(slow.output.errors, ['timed out after 1s']);
  });

  test('permissionRequest: exit 2 and a crash refuse the permission, ending the chain (fail closed); a timeout lets it go on', async () => {
    const perm = { toolName: 'bash', toolInput: { command: 'ls' }, permissionSuggestions: [] };
    const exit2 = await fire(
      'permissionRequest',
      { permissionRequest: [reply(2, '', 'why'), reply(0, json({ behavior: 'allow' }))] },
      perm,
    );
    assert.deepEqual(
      [exit2.output.deny, exit2.output.behavior, exit2.runs.length],
      ['Permission denied by a PermissionRequest hook: Permission denied by hook.', undefined, 1],
    );
    const crash = await fire('permissionRequest', { permissionRequest: [reply(1, '', 'boom')] }, perm);
    assert.equal(crash.output.deny, 'Permission denied by a PermissionRequest hook: Permission request hook failed');
    assert.deepEqual(crash.output.errors, ['exit code 1: boom']);
    const slow = await fire(
      'permissionRequest',
      { permissionRequest: [{ ...reply(0, json({ behavior: 'deny' }), '', '3'), timeoutSec: 1 }] },
      perm,
    );
    assert.equal(slow.output.deny, undefined);
    assert.deepEqual(slow.output.errors, ['timed out after 1s']);
  });

  test('onFailure: "block" makes a timeout and output that is not JSON deny too', async () => {
    const slow = await fire('preToolUse', { preToolUse: [{ ...reply(0, '', '', '3'), timeoutSec: 1, onFailure: 'block' }] }, bashCall);
    assert.equal(slow.output.deny, 'Denied by preToolUse hook from ".github/hooks/h.json" (onFailure: block): timed out after 1s');
    const text = await fire('preToolUse', { preToolUse: [{ ...reply(0, 'looks fine'), onFailure: 'block' }] }, bashCall);
    assert.match(
      text.output.deny ?? '',
      /^Denied by preToolUse hook from "\.github\/hooks\/h\.json" \(onFailure: block\): stdout is not a JSON object/,
    );
    const prompt = await fire(
      'userPromptSubmitted',
      { userPromptSubmitted: [{ ...reply(1, '', 'down'), onFailure: 'block' }] },
      { prompt: 'hi' },
    );
    assert.equal(prompt.output.decision, 'block');
  });

  test('off preToolUse: exit 2 shows its stderr to the user, exit 1 is reported and ignored', async () => {
    const shown = await fire('sessionStart', { sessionStart: [reply(2, '', 'look here')] }, { source: 'new' });
    assert.deepEqual(shown.output.shown, ['look here']);
    const crash = await fire('agentStop', { agentStop: [reply(1, json({ decision: 'block', reason: 'x' }), 'boom')] });
    assert.equal(crash.output.decision, undefined);
    assert.deepEqual(crash.output.errors, ['exit code 1: boom']);
  });

  test('output that is not an answer is ignored, with a warning for a field of the wrong kind', async () => {
    const r = await fire('preToolUse', { preToolUse: [reply(0, json({ permissionDecision: 'nope' }))] }, bashCall);
    assert.equal(r.output.deny, undefined);
    assert.deepEqual(r.output.warnings, ['permissionDecision "nope" is not allow, deny or ask (ignored, as Copilot CLI ignores it)']);
  });
});
