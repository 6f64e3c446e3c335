// Claude Code dialect: translation to and from Hookline's internal (Gemini CLI) model, checked
// through the appliers of src/apply the reference agent is built on.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { applyAfterAgent, applyAfterTool, applyBeforeAgent, applyBeforeTool, applySessionStart } from '../../src/apply/index.js';
import { EVENT_NAMES } from '../../src/events/names.js';
import {
  claudeEventFor,
  claudeToolName,
  fireClaude,
  parseClaudeSettings,
  toClaudeInput,
  toGeminiOutput,
  type ClaudeEvent,
  type ClaudeOutput,
} from '../../src/dialects/claude/index.js';
import { fx, tmpDir } from './util.js';

const base = { session_id: 's', transcript_path: '/t', cwd: '/w', hook_event_name: 'X', timestamp: '2026-01-01T00:00:00Z' };
const out = (o: Partial<ClaudeOutput>): ClaudeOutput => ({ continue: true, systemMessages: [], errors: [], ...o });
const g = (event: ClaudeEvent, o: Partial<ClaudeOutput>, toolInput?: Record<string, unknown>) =>
  toGeminiOutput({ event, output: out(o) }, { toolInput });

describe('Gemini → Claude: events and input', () => {
  test('claudeEventFor: each Gemini event point and its Claude event; none for the model events', () => {
    const map = Object.fromEntries(EVENT_NAMES.map((e) => [e, claudeEventFor(e) ?? null]));
    assert.deepEqual(map, {
      BeforeTool: 'PreToolUse',
      AfterTool: 'PostToolUse',
      BeforeAgent: 'UserPromptSubmit',
      Notification: 'Notification',
      AfterAgent: 'Stop',
      SessionStart: 'SessionStart',
      SessionEnd: 'SessionEnd',
      PreCompress: 'PreCompact',
      BeforeModel: null,
      AfterModel: null,
      BeforeToolSelection: null,
    });
    assert.equal(
      claudeEventFor('AfterTool', { tool_response: { llmContent: 'x', error: { message: 'boom', type: 'E' } } }),
      'PostToolUseFailure',
    );
    assert.equal(claudeEventFor('AfterTool', { tool_response: { llmContent: 'x' } }), 'PostToolUse');
  });

  test('tool names: Gemini → Claude; others unchanged', () => {
    assert.deepEqual(
      [
        'run_shell_command',
        'write_file',
        'replace',
        'read_file',
        'glob',
        'search_file_content',
        'list_directory',
        'ask_agent',
        'run_code',
        'mcp__x__y',
        'toString',
      ].map(claudeToolName),
      ['Bash', 'Write', 'Edit', 'Read', 'Glob', 'Grep', 'LS', 'Agent', 'run_code', 'mcp__x__y', 'toString'],
    );
  });

  test('toClaudeInput: base fields, tool events, permission mode', () => {
    const args = { command: 'ls', description: 'list' };
    assert.deepEqual(
      toClaudeInput(
        'BeforeTool',
        { ...base, tool_name: 'run_shell_command', tool_input: args },
        { permissionMode: 'yolo', toolUseId: 'toolu_9' },
      ),
      {
        session_id: 's',
        transcript_path: '/t',
        cwd: '/w',
        permission_mode: 'bypassPermissions',
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: args,
        tool_use_id: 'toolu_9',
      },
    );
    const response = { llmContent: 'a\nb', returnDisplay: 'a\nb' };
    assert.deepEqual(
      toClaudeInput(
        'AfterTool',
        { ...base, tool_name: 'read_file', tool_input: { file_path: 'a' }, tool_response: response },
        { permissionMode: 'auto_edit' },
      ),
      {
        session_id: 's',
        transcript_path: '/t',
        cwd: '/w',
        permission_mode: 'acceptEdits',
        hook_event_name: 'PostToolUse',
        tool_name: 'Read',
        tool_input: { file_path: '/w/a' },
        tool_use_id: '',
        tool_response: response,
      },
    );
    const failed = toClaudeInput('AfterTool', {
      ...base,
      tool_name: 'write_file',
      tool_input: {},
      tool_response: { llmContent: 'x', error: { message: 'disk full', type: 'E' } },
    });
    assert.deepEqual(
      [failed?.hook_event_name, failed?.tool_name, failed?.error, failed?.is_interrupt, failed?.permission_mode],
      ['PostToolUseFailure', 'Write', 'disk full', false, 'default'],
    );
  });

  test('toClaudeInput: prompt, stop, session, compaction and notification events; undefined for model events', () => {
    const own = (e: Parameters<typeof toClaudeInput>[0], fields: Record<string, unknown>) => {
      const r = toClaudeInput(e, { ...base, ...fields });
      if (!r) return r;
      const { session_id: _s, transcript_path: _t, cwd: _c, permission_mode: _p, ...rest } = r;
      return rest;
    };
    assert.deepEqual(own('BeforeAgent', { prompt: 'hi' }), { hook_event_name: 'UserPromptSubmit', prompt: 'hi' });
    assert.deepEqual(own('AfterAgent', { prompt: 'hi', prompt_response: 'Done.', stop_hook_active: true }), {
      hook_event_name: 'Stop',
      stop_hook_active: true,
      last_assistant_message: 'Done.',
    });
    assert.deepEqual(own('SessionStart', { source: 'resume' }), { hook_event_name: 'SessionStart', source: 'resume' });
    assert.deepEqual(own('SessionEnd', { reason: 'exit' }), { hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' });
    assert.deepEqual(own('SessionEnd', { reason: 'clear' }), { hook_event_name: 'SessionEnd', reason: 'clear' });
    assert.deepEqual(own('PreCompress', { trigger: 'manual' }), {
      hook_event_name: 'PreCompact',
      trigger: 'manual',
      custom_instructions: '',
    });
    assert.deepEqual(
      own('Notification', { notification_type: 'ToolPermission', message: 'Tool ls requires execution', details: { title: 'ls' } }),
      {
        hook_event_name: 'Notification',
        message: 'Tool ls requires execution',
        title: 'ls',
        notification_type: 'permission_prompt',
      },
    );
    assert.equal(own('BeforeModel', { llm_request: {} }), undefined);
  });
});

describe('Claude → Gemini: outputs the appliers understand', () => {
  const args = { command: 'rm -rf build', description: 'clean' };

  test('PreToolUse deny → the tool does not run and the model reads the reason', () => {
    const e = applyBeforeTool(g('PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: 'no deletes' }), args);
    assert.deepEqual(e, { action: 'deny', message: 'Tool execution blocked: no deletes', systemMessage: undefined });
  });

  test('PreToolUse ask and defer → ask; allow → run', () => {
    assert.equal(applyBeforeTool(g('PreToolUse', { permissionDecision: 'ask' }), args).action, 'ask');
    assert.equal(applyBeforeTool(g('PreToolUse', { permissionDecision: 'defer' }), args).action, 'ask');
    assert.deepEqual(g('PreToolUse', { permissionDecision: 'allow', permissionDecisionReason: 'ok' }), { decision: 'allow', reason: 'ok' });
    assert.equal(applyBeforeTool(g('PreToolUse', { permissionDecision: 'allow' }), args).action, 'run');
  });

  test('updatedInput replaces the input: with the original input given, keys the hook dropped are gone after the merge', () => {
    const replaced = applyBeforeTool(g('PreToolUse', { updatedInput: { command: 'rm -rf ./build' } }, args), args);
    assert.equal(replaced.action, 'run');
    if (replaced.action !== 'run') return;
    assert.equal(replaced.inputModified, true);
    assert.deepEqual(JSON.parse(JSON.stringify(replaced.args)), { command: 'rm -rf ./build' });
    assert.equal(replaced.args.description, undefined);
    // Without the original input, Gemini's merge keeps what the hook dropped.
    const merged = applyBeforeTool(g('PreToolUse', { updatedInput: { command: 'x' } }), args);
    assert.deepEqual(merged.action === 'run' && merged.args, { command: 'x', description: 'clean' });
  });

  test('continue: false → the agent stops, with stopReason; system messages and errors → systemMessage', () => {
    const o = g('PreToolUse', {
      continue: false,
      stopReason: 'quota reached',
      systemMessages: ['note'],
      errors: ['PreToolUse hook error: x: exit code 1'],
    });
    assert.deepEqual(o, { continue: false, stopReason: 'quota reached', systemMessage: 'note\nPreToolUse hook error: x: exit code 1' });
    assert.deepEqual(applyBeforeTool(o, args), {
      action: 'stop',
      message: 'Agent execution stopped by hook: quota reached',
      systemMessage: 'note\nPreToolUse hook error: x: exit code 1',
    });
  });

  test('PostToolUse block → the model keeps the result and reads the reason and the context', () => {
    const o = g('PostToolUse', { decision: 'block', reason: 'fix lint', additionalContext: '2 warnings', updatedToolOutput: 'redacted' });
    assert.deepEqual(o, {
      hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: 'fix lint\n2 warnings', updatedToolOutput: 'redacted' },
    });
    assert.deepEqual(applyAfterTool(o, 'result'), {
      action: 'keep',
      llmContent: 'result\n\n<hook_context>fix lint\n2 warnings</hook_context>',
      systemMessage: undefined,
    });
  });

  test('UserPromptSubmit block → the prompt is refused and discarded; context → added to the prompt', () => {
    assert.deepEqual(applyBeforeAgent(g('UserPromptSubmit', { decision: 'block', reason: 'contains a secret' })), {
      action: 'deny',
      reason: 'contains a secret',
      systemMessage: undefined,
    });
    assert.deepEqual(applyBeforeAgent(g('UserPromptSubmit', { additionalContext: 'branch: main' })), {
      action: 'proceed',
      context: 'branch: main',
      systemMessage: undefined,
    });
  });

  test('Stop block → AfterAgent deny: a retry with the reason as the prompt', () => {
    const o = g('Stop', { decision: 'block', reason: 'run the tests' });
    assert.deepEqual(o, { decision: 'deny', reason: 'run the tests' });
    assert.deepEqual(applyAfterAgent(o, 0), { action: 'retry', prompt: 'run the tests', clearContext: false, systemMessage: undefined });
  });

  test('SessionStart context; nothing to say → undefined', () => {
    assert.equal(applySessionStart(g('SessionStart', { additionalContext: 'hello' })).context, 'hello');
    assert.equal(g('PreToolUse', {}), undefined);
    assert.equal(g('Notification', {}), undefined);
  });

  test('end to end: a Claude Bash hook fired at a Gemini BeforeTool point rewrites run_shell_command', async () => {
    const settings = parseClaudeSettings(
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: fx('cc-bash-guard.mjs') }] }] } }),
      'settings.json',
      'user',
    );
    const config = { files: [], hooks: settings.hooks, problems: [] };
    const toolInput = { command: 'ls', description: 'list files' };
    const geminiInput = { ...base, hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: toolInput };
    const event = claudeEventFor('BeforeTool')!;
    const fired = await fireClaude(config, event, toClaudeInput('BeforeTool', geminiInput)!, { projectDir: tmpDir('hookline-cc-') });
    const effect = applyBeforeTool(toGeminiOutput(fired, { toolInput }), toolInput);
    assert.equal(effect.action, 'run');
    assert.deepEqual(effect.action === 'run' && JSON.parse(JSON.stringify(effect.args)), { command: 'ls -a' });
    const blocked = await fireClaude(config, event, toClaudeInput('BeforeTool', { ...geminiInput, tool_input: { command: 'rm -rf /' } })!, {
      projectDir: tmpDir('hookline-cc-'),
    });
    assert.deepEqual(applyBeforeTool(toGeminiOutput(blocked), {}), {
      action: 'deny',
      message: 'Tool execution blocked: Destructive command blocked: rm -rf /',
      systemMessage: undefined,
    });
  });
});
