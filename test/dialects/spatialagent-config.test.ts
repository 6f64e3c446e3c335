// SpatialAgent (seed 004): "Quick Start", "Schema Reference" and the configuration checks.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { parseSaConfig, loadSaConfig, defaultSaConfigPath, saHookCount } from '../../src/dialects/spatialagent/config.js';
import { SA_EVENTS, SA_VARIABLES } from '../../src/dialects/spatialagent/events.js';
import { formatProblem } from '../../src/config/problems.js';
import { tmpDir } from './util.js';

const F = '/p/.spatialagent/settings.json';
const problems = (settings: unknown) =>
  parseSaConfig(typeof settings === 'string' ? settings : JSON.stringify(settings), F).problems.map((p) => [p.severity, p.path, p.message]);

describe('SpatialAgent settings', () => {
  test("the seed's Quick Start loads: a bash Start hook and a prompt PreAct hook with a matcher", () => {
    const c = parseSaConfig(
      JSON.stringify({
        hooks: {
          Start: [{ type: 'bash', command: "echo 'Starting analysis: $QUERY'" }],
          PreAct: [
            {
              matcher: { code_type: 'bash' },
              type: 'prompt',
              prompt:
                'Review this bash command for safety: $CODE\n\nRespond with JSON: {"decision": "approve" or "block", "reason": "explanation"}',
              timeout: 30,
            },
          ],
        },
      }),
      F,
    );
    assert.deepEqual(c.problems, []);
    assert.equal(saHookCount(c), 2);
    assert.deepEqual(c.hooks.Start[0], {
      event: 'Start',
      path: 'hooks.Start[0]',
      type: 'bash',
      command: "echo 'Starting analysis: $QUERY'",
      timeoutSeconds: 30,
    });
    const pre = c.hooks.PreAct[0];
    assert.equal(pre.type, 'prompt');
    assert.equal(pre.matcher?.[0].key, 'code_type');
    assert.equal(pre.matcher?.[0].expected, 'bash');
  });

  test('the ten events, each with its documented variables', () => {
    assert.deepEqual(
      [...SA_EVENTS],
      ['Start', 'Stop', 'PrePlan', 'PostPlan', 'PreAct', 'PostAct', 'PreToolUse', 'PostToolUse', 'PreRoute', 'PreConclusion'],
    );
    assert.deepEqual(SA_VARIABLES.Start, ['QUERY', 'THREAD_ID', 'MAX_STEP', 'TOOLS']);
    assert.deepEqual(SA_VARIABLES.PostPlan, ['STEP', 'RESPONSE', 'NEXT_STEP', 'HAS_ACT', 'HAS_CONCLUSION']);
    assert.deepEqual(SA_VARIABLES.PreRoute, []);
  });

  test('schema: timeout in seconds, default 30; fractions allowed', () => {
    const c = parseSaConfig(
      JSON.stringify({
        hooks: {
          Stop: [
            { type: 'bash', command: 'a' },
            { type: 'bash', command: 'b', timeout: 45 },
            { type: 'bash', command: 'c', timeout: 0.5 },
          ],
        },
      }),
      F,
    );
    assert.deepEqual(
      c.hooks.Stop.map((h) => h.timeoutSeconds),
      [30, 45, 0.5],
    );
  });

  test('a hook without type is a bash hook, as SpatialAgent reads it (with a warning)', () => {
    const c = parseSaConfig(JSON.stringify({ hooks: { Start: [{ command: 'echo hi' }] } }), F);
    assert.equal(c.hooks.Start[0].type, 'bash');
    assert.deepEqual(problems({ hooks: { Start: [{ command: 'echo hi' }] } }), [
      ['warning', 'hooks.Start[0]', 'no "type": taken as "bash", as SpatialAgent does'],
    ]);
  });

  test("Claude Code's nesting {matcher, hooks: [...]} is read too; an inner matcher wins", () => {
    const c = parseSaConfig(
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: { tool: 'execute_bash' },
              hooks: [
                { type: 'bash', command: 'a' },
                { type: 'bash', command: 'b', matcher: { tool: 'x' } },
              ],
            },
          ],
        },
      }),
      F,
    );
    assert.deepEqual(
      c.hooks.PreToolUse.map((h) => [h.path, h.command, h.matcher?.[0].expected]),
      [
        ['hooks.PreToolUse[0].hooks[0]', 'a', 'execute_bash'],
        ['hooks.PreToolUse[0].hooks[1]', 'b', 'x'],
      ],
    );
  });

  test('errors name the file, the JSON path and the problem; the hook is dropped', () => {
    assert.deepEqual(
      problems({
        hooks: {
          PreAct: [
            { type: 'python', command: 'x' },
            { type: 'bash' },
            { type: 'prompt', prompt: '' },
            { type: 'bash', command: 'ok', timeout: 0 },
            { type: 'bash', command: 'ok', timeout: '30' },
            { type: 'bash', command: 'ok', matcher: 'bash' },
            { type: 'bash', command: 'ok', matcher: { tool: '(unclosed' } },
            { type: 'bash', command: 'ok', matcher: { step: [1] } },
            'echo',
          ],
          PostAct: { type: 'bash' },
        },
      }),
      [
        ['error', 'hooks.PreAct[0].type', 'must be "bash" or "prompt", got "python"'],
        ['error', 'hooks.PreAct[1].command', 'a bash hook needs a command'],
        ['error', 'hooks.PreAct[2].prompt', 'must be a non-empty string'],
        ['error', 'hooks.PreAct[3].timeout', 'must be a positive number of seconds, got 0'],
        ['error', 'hooks.PreAct[4].timeout', 'must be a positive number of seconds, got "30"'],
        ['error', 'hooks.PreAct[5].matcher', 'must be an object such as {"code_type": "bash"}, got a string'],
        ['error', 'hooks.PreAct[6].matcher.tool', 'invalid regular expression: error parsing regexp: missing closing ): `(unclosed`'],
        ['error', 'hooks.PreAct[7].matcher.step', 'must be a string (a regular expression), a number or a boolean, got an array'],
        ['error', 'hooks.PreAct[8]', 'a hook must be an object with "type" and "command" or "prompt", got a string'],
        ['error', 'hooks.PostAct', 'must be an array of hooks, got an object'],
      ],
    );
    const c = parseSaConfig(JSON.stringify({ hooks: { PreAct: [{ type: 'bash' }, { type: 'bash', command: 'kept' }] } }), F);
    assert.deepEqual(
      c.hooks.PreAct.map((h) => h.command),
      ['kept'],
    );
    assert.equal(formatProblem(c.problems[0]), `error: ${F}: hooks.PreAct[0].command: a bash hook needs a command`);
  });

  test('warnings: unknown event (skipped), unknown field, undocumented matcher field', () => {
    assert.deepEqual(
      problems({ hooks: { PreTool: [], Start: [{ type: 'bash', command: 'x', comand: 'y', matcher: { thread_id: 't' } }] } }),
      [
        ['warning', 'hooks.PreTool', `unknown event "PreTool" (ignored); expected one of ${SA_EVENTS.join(', ')}`],
        ['warning', 'hooks.Start[0].comand', 'unknown field "comand" (ignored)'],
        [
          'warning',
          'hooks.Start[0].matcher.thread_id',
          '"thread_id" is not a documented matcher field (tool, code_type, step); it is compared with the context variable THREAD_ID',
        ],
      ],
    );
  });

  test('invalid JSON loads no hook at all, as SpatialAgent', () => {
    const c = parseSaConfig('{"hooks": {"Start": [{"type": "bash", "command": "x"},]}}', F);
    assert.equal(saHookCount(c), 0);
    assert.equal(c.problems.length, 1);
    assert.equal(c.problems[0].path, '');
    assert.match(c.problems[0].message, /line 1.*\(no hook is loaded\)$/);
    assert.deepEqual(problems('[1]'), [['error', '', 'must be a JSON object with "hooks", got an array']]);
    assert.deepEqual(problems({ hooks: [] }), [['error', 'hooks', 'must be an object of events, got an array']]);
  });

  test('the usual place, and a missing file = no hooks', () => {
    assert.equal(defaultSaConfigPath('/proj'), path.join('/proj', '.spatialagent', 'settings.json'));
    const c = loadSaConfig(defaultSaConfigPath(tmpDir()));
    assert.equal(c.exists, false);
    assert.equal(saHookCount(c), 0);
  });
});
