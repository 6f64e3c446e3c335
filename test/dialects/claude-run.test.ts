// Claude Code dialect: firing events with real hook processes — input, environment, exit codes,
// every output field and how the hooks of one event are aggregated.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  aggregateClaude,
  fireClaude,
  parseClaudeSettings,
  type ClaudeConfig,
  type ClaudeEvent,
  type ClaudeRunReading,
} from '../../src/dialects/claude/index.js';
import { findNamed, fx, q, tmpDir } from './util.js';
import { ClaudeSession } from '../../src/dialects/claude/background.js';
import { poolsOf } from '../../src/run/prewarm.js';
import { survivors } from '../run/util.js';

type Groups = Partial<Record<ClaudeEvent, Array<{ matcher?: string; hooks: Array<Record<string, unknown>> }>>>;

const cmd = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command, ...extra });
/** A hook that prints `stdout` (and `stderr`) and exits `code`. */
const reply = (code: number, stdout = '', stderr = '') => cmd(`${fx('cc-reply.sh')} ${code} ${q(stdout)} ${q(stderr)}`);
const json = (v: unknown) => JSON.stringify(v);
const pre = (specific: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  json({ ...extra, hookSpecificOutput: { hookEventName: 'PreToolUse', ...specific } });

function configOf(hooks: Groups): ClaudeConfig {
  const r = parseClaudeSettings(JSON.stringify({ hooks }), 'settings.json', 'project');
  assert.deepEqual(r.problems, []);
  return { files: [], hooks: r.hooks, problems: [] };
}

async function fire(
  event: ClaudeEvent,
  hooks: Array<Record<string, unknown>>,
  fields: Record<string, unknown> = {},
  projectDir = tmpDir('hookline-cc-'),
) {
  return fireClaude(configOf({ [event]: [{ hooks }] }), event, fields, { projectDir });
}

const bash = { tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'toolu_1' };

describe('Claude Code hooks: input and environment', () => {
  test('each hook reads the Claude input on stdin, runs in the project folder with CLAUDE_PROJECT_DIR, without secrets', async () => {
    const base = tmpDir('hookline-cc-');
    const dir = path.join(base, `my proj 'q' $(touch PWNED)`);
    fs.mkdirSync(dir);
    const prev = process.env.SECRET_TOKEN;
    process.env.SECRET_TOKEN = 'hunter2';
    try {
      const r = await fireClaude(
        configOf({ PreToolUse: [{ matcher: 'Bash', hooks: [cmd(`${fx('cc-capture.sh')} "$CLAUDE_PROJECT_DIR/seen.json"`)] }] }),
        'PreToolUse',
        { ...bash, session_id: 's-1', transcript_path: '/t.jsonl', hook_event_name: 'Wrong' },
        { projectDir: dir },
      );
      assert.equal(r.runs[0].exitCode, 0, r.runs[0].stderr);
    } finally {
      if (prev === undefined) delete process.env.SECRET_TOKEN;
      else process.env.SECRET_TOKEN = prev;
    }
    const seen = JSON.parse(fs.readFileSync(path.join(dir, 'seen.json'), 'utf8'));
    assert.deepEqual(seen, {
      session_id: 's-1',
      transcript_path: '/t.jsonl',
      cwd: dir,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      tool_use_id: 'toolu_1',
    });
    assert.equal(fs.readFileSync(path.join(dir, 'seen.json.env'), 'utf8'), `pwd=${dir}\nCLAUDE_PROJECT_DIR=${dir}\nSECRET_TOKEN=unset\n`);
    assert.deepEqual(findNamed(base, 'PWNED'), []);
  });

  test('base fields are filled when missing; Stop gets stop_hook_active: false; event fields pass through as given', async () => {
    const dir = tmpDir('hookline-cc-');
    const out = path.join(dir, 'in.json');
    const r = await fire('Stop', [cmd(`${fx('cc-capture.sh')} ${q(out)}`)], { last_assistant_message: 'done', custom: 1 }, dir);
    assert.equal(r.input.hook_event_name, 'Stop');
    const seen = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.match(seen.session_id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(
      { ...seen, session_id: 'x' },
      {
        session_id: 'x',
        transcript_path: '',
        cwd: dir,
        permission_mode: 'default',
        hook_event_name: 'Stop',
        last_assistant_message: 'done',
        custom: 1,
        stop_hook_active: false,
      },
    );
  });

  test('all matching hooks run at once; their runs are reported in configuration order', async () => {
    // Each hook answers only once all three have started; first and third also wait for second
    // to be done, so they finish out of configuration order. Run one at a time, they never meet.
    const d = tmpDir('hookline-meet-');
    const meet = (label: string, after = '') => cmd(`${fx('meet.sh')} ${q(d)} 3 ${label} ${after}`);
    const r = await fire('Notification', [meet('first', 'second'), meet('second'), meet('third', 'second')], {
      message: 'm',
      notification_type: 'idle_prompt',
    });
    assert.deepEqual(
      r.runs.map((x) => x.text),
      ['first', 'second', 'third'],
    );
  });

  test('identical commands run once', async () => {
    const dir = tmpDir('hookline-cc-');
    const c = `echo x >> ${q(path.join(dir, 'count'))}`;
    const r = await fireClaude(
      configOf({ Stop: [{ hooks: [cmd(c)] }, { hooks: [cmd(c, { timeout: 9 })] }] }),
      'Stop',
      {},
      { projectDir: dir },
    );
    assert.equal(r.runs.length, 1);
    assert.equal(fs.readFileSync(path.join(dir, 'count'), 'utf8'), 'x\n');
  });

  test('timeouts are seconds: a hook past its timeout is stopped and is a non-blocking error', async () => {
    const started = performance.now();
    const r = await fire(
      'PreToolUse',
      [cmd(`${fx('cc-sleep.sh')} 10`, { timeout: 0.3 }), reply(0, pre({ permissionDecision: 'allow' }))],
      bash,
    );
    assert.ok(performance.now() - started < 2500);
    assert.equal(r.runs[0].timedOut, true);
    assert.equal(r.runs[0].error, 'timed out after 0.3s');
    assert.equal(r.runs[0].outcome, 'error');
    assert.deepEqual(r.output.errors, [`PreToolUse hook error: ${fx('cc-sleep.sh')} 10: timed out after 0.3s`]);
    assert.equal(r.output.permissionDecision, 'allow', 'the other hook still decides');
  });
});

describe('Claude Code hooks: exit codes', () => {
  test('exit 2 on PreToolUse denies with stderr as the reason; its stdout (even JSON) is ignored', async () => {
    const r = await fire('PreToolUse', [reply(2, pre({ permissionDecision: 'allow' }), 'no rm here')], bash);
    assert.equal(r.output.permissionDecision, 'deny');
    assert.equal(r.output.permissionDecisionReason, 'no rm here');
    assert.equal(r.runs[0].format, 'exit2');
    assert.equal(r.runs[0].outcome, 'deny');
  });

  test('exit 2 per event: UserPromptSubmit, PostToolUse, Stop, SubagentStop and PreCompact block; events that cannot block show stderr to the user', async () => {
    for (const event of ['UserPromptSubmit', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'SubagentStop', 'PreCompact'] as const) {
      const r = await fire(event, [reply(2, '', `why ${event}`)], { tool_name: 'Bash' });
      assert.equal(r.output.decision, 'block', event);
      assert.equal(r.output.reason, `why ${event}`, event);
      assert.deepEqual(r.output.systemMessages, [], event);
    }
    for (const event of ['Notification', 'SessionStart', 'SessionEnd', 'SubagentStart', 'PostCompact'] as const) {
      const r = await fire(event, [reply(2, '', `shown ${event}`)]);
      assert.equal(r.output.decision, undefined, event);
      assert.deepEqual(r.output.systemMessages, [`shown ${event}`], event);
      assert.equal(r.runs[0].outcome, 'ok');
    }
  });

  test('another exit code is a non-blocking error shown to the user; JSON on its stdout is ignored', async () => {
    const r = await fire('PreToolUse', [reply(1, pre({ permissionDecision: 'deny' }), 'lint crashed'), reply(3)], bash);
    assert.equal(r.output.permissionDecision, undefined);
    assert.deepEqual(r.output.errors, [
      `PreToolUse hook error: ${fx('cc-reply.sh')} 1 ${q(pre({ permissionDecision: 'deny' }))} 'lint crashed': exit code 1: lint crashed`,
      `PreToolUse hook error: ${fx('cc-reply.sh')} 3 '' '': exit code 3`,
    ]);
    assert.deepEqual(
      r.runs.map((x) => [x.success, x.outcome]),
      [
        [false, 'error'],
        [false, 'error'],
      ],
    );
  });

  test('exit 0: plain stdout is context for UserPromptSubmit and SessionStart, transcript text elsewhere', async () => {
    const u = await fire(
      'UserPromptSubmit',
      [
        reply(0, 'Current branch: main'),
        reply(0, json({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'Ticket: ABC-1' } })),
      ],
      { prompt: 'fix it' },
    );
    assert.equal(u.output.additionalContext, 'Current branch: main\nTicket: ABC-1');
    assert.equal(u.output.decision, undefined);
    const s = await fire('SessionStart', [reply(0, 'Remember the style guide')], { source: 'startup' });
    assert.equal(s.output.additionalContext, 'Remember the style guide');
    const p = await fire('PreToolUse', [reply(0, 'just a log line')], bash);
    assert.equal(p.output.additionalContext, undefined);
    assert.equal(p.runs[0].text, 'just a log line');
    assert.deepEqual(p.output.errors, []);
  });

  test('exit 0 with stdout starting with "{": invalid JSON, an invalid field, a wrong hookEventName are non-blocking errors', async () => {
    const r = await fire(
      'PreToolUse',
      [
        reply(0, '{"decision": '),
        reply(0, pre({ permissionDecision: 'maybe' })),
        reply(0, json({ hookSpecificOutput: { hookEventName: 'PostToolUse', permissionDecision: 'deny' } })),
        reply(0, json({ hookSpecificOutput: { permissionDecision: 'deny' } })),
        reply(0, json({ continue: 'no' })),
      ],
      bash,
    );
    assert.equal(r.output.permissionDecision, undefined);
    assert.equal(r.output.continue, true);
    assert.equal(r.runs.length, 5);
    assert.match(r.runs[0].error!, /^stdout starts with "\{" but is not valid JSON/);
    assert.match(r.runs[1].error!, /^invalid hook output: hookSpecificOutput\.permissionDecision: /);
    assert.equal(r.runs[2].error, 'invalid hook output: hookSpecificOutput.hookEventName is "PostToolUse", expected "PreToolUse"');
    assert.match(r.runs[3].error!, /^invalid hook output: hookSpecificOutput\.hookEventName: /);
    assert.match(r.runs[4].error!, /^invalid hook output: continue: /);
    assert.equal(r.output.errors.length, 5);
  });
});

describe('Claude Code hooks: output fields and aggregation', () => {
  test('PreToolUse: deny > defer > ask > allow across hooks; the reasons of the winning decision', async () => {
    const d = (permissionDecision: string, permissionDecisionReason?: string) =>
      reply(0, pre({ permissionDecision, ...(permissionDecisionReason ? { permissionDecisionReason } : {}) }));
    let r = await fire('PreToolUse', [d('allow', 'fine'), d('ask', 'check with the user')], bash);
    assert.deepEqual([r.output.permissionDecision, r.output.permissionDecisionReason], ['ask', 'check with the user']);
    r = await fire('PreToolUse', [d('defer'), d('ask', 'a'), d('allow')], bash);
    assert.deepEqual([r.output.permissionDecision, r.output.permissionDecisionReason], ['defer', undefined]);
    r = await fire('PreToolUse', [d('deny', 'first'), d('defer'), reply(2, '', 'second'), d('allow', 'ok')], bash);
    assert.deepEqual([r.output.permissionDecision, r.output.permissionDecisionReason], ['deny', 'first\nsecond']);
    assert.deepEqual(
      r.runs.map((x) => x.outcome),
      ['deny', 'defer', 'deny', 'allow'],
    );
  });

  test('exit code 2 with JSON on stdout: its own deny wins and stderr is dropped; without a block of its own, stderr blocks beside it', async () => {
    const r = await fire(
      'PreToolUse',
      [reply(2, pre({ permissionDecision: 'deny', permissionDecisionReason: 'from json' }), 'from stderr')],
      bash,
    );
    assert.deepEqual([r.output.permissionDecision, r.output.permissionDecisionReason], ['deny', 'from json']);
    assert.deepEqual(
      r.output.blocks.map((b) => [b.reason, b.exit2]),
      [['from json', false]],
    );
    const c = await fire('PreToolUse', [reply(2, pre({ additionalContext: 'ctx' }), 'from stderr')], bash);
    assert.deepEqual(
      [c.output.permissionDecision, c.output.permissionDecisionReason, c.output.additionalContext],
      ['deny', 'from stderr', 'ctx'],
    );
    assert.deepEqual(
      c.output.blocks.map((b) => [b.reason, b.exit2]),
      [['from stderr\n', true]],
    );
    const quiet = await fire('PostToolUse', [reply(2, '', '')], { ...bash, tool_response: { stdout: '' } });
    assert.deepEqual([quiet.output.decision, quiet.output.reason], ['block', 'No stderr output']);
  });

  test('PreToolUse: the legacy top-level decision approve/block + reason', async () => {
    let r = await fire('PreToolUse', [reply(0, json({ decision: 'approve', reason: 'trusted' }))], bash);
    assert.deepEqual([r.output.permissionDecision, r.output.permissionDecisionReason], ['allow', 'trusted']);
    r = await fire(
      'PreToolUse',
      [reply(0, json({ decision: 'block', reason: 'not here' })), reply(0, json({ decision: 'approve' }))],
      bash,
    );
    assert.deepEqual([r.output.permissionDecision, r.output.permissionDecisionReason], ['deny', 'not here']);
  });

  test('PreToolUse: updatedInput replaces the input, the last hook in configuration order wins (with a warning); none on deny; additionalContext', async () => {
    const r = await fire(
      'PreToolUse',
      [
        reply(0, pre({ updatedInput: { command: 'ls -1' }, additionalContext: 'one' })),
        reply(0, pre({ permissionDecision: 'allow', updatedInput: { command: 'ls -a' }, additionalContext: 'two' })),
      ],
      bash,
    );
    assert.deepEqual(r.output.updatedInput, { command: 'ls -a' });
    assert.equal(r.output.additionalContext, 'one\ntwo');
    assert.equal(r.warnings.length, 1);
    assert.match(
      r.warnings[0],
      /^2 PreToolUse hooks rewrote the tool input differently; the last in configuration order wins \(settings\.json hooks\.PreToolUse\[0\]\.hooks\[1\]\)$/,
    );
    const denied = await fire('PreToolUse', [reply(0, pre({ updatedInput: { command: 'ls -1' } })), reply(2, '', 'no')], bash);
    assert.equal(denied.output.updatedInput, undefined);
    assert.equal(denied.output.permissionDecision, 'deny');
  });

  test('a real Bash guard: blocks rm -rf by exit 2, rewrites ls by JSON, ignores other tools', async () => {
    const config = configOf({ PreToolUse: [{ matcher: 'Bash', hooks: [cmd(fx('cc-bash-guard.mjs'), { timeout: 10 })] }] });
    const dir = tmpDir('hookline-cc-');
    const rm = await fireClaude(config, 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'rm -rf /' } }, { projectDir: dir });
    assert.deepEqual([rm.output.permissionDecision, rm.output.permissionDecisionReason], ['deny', 'Destructive command blocked: rm -rf /']);
    const ls = await fireClaude(
      config,
      'PreToolUse',
      { tool_name: 'Bash', tool_input: { command: 'ls', description: 'list' } },
      { projectDir: dir },
    );
    assert.deepEqual(ls.output, {
      continue: true,
      systemMessages: [],
      errors: [],
      blocks: [],
      contexts: [],
      permissionDecision: 'allow',
      permissionDecisionReason: 'listing is safe',
      updatedInput: { command: 'ls -a' },
    });
    const read = await fireClaude(config, 'PreToolUse', { tool_name: 'Read', tool_input: { file_path: 'a' } }, { projectDir: dir });
    assert.deepEqual(read.runs, []);
  });

  test('continue: false with stopReason (joined), suppressOutput, systemMessage (in order), on any event', async () => {
    const r = await fire(
      'PostToolUse',
      [
        reply(0, json({ continue: false, stopReason: 'build is broken', systemMessage: 'first' })),
        reply(0, json({ suppressOutput: true, systemMessage: 'second' })),
        reply(0, json({ continue: false, stopReason: 'tests too' })),
      ],
      { ...bash, tool_response: { stdout: '' } },
    );
    assert.deepEqual(r.output, {
      continue: false,
      stopReason: 'build is broken\ntests too',
      suppressOutput: true,
      systemMessages: ['first', 'second'],
      errors: [],
      blocks: [],
      contexts: [],
    });
    assert.deepEqual(
      r.runs.map((x) => x.outcome),
      ['stop', 'ok', 'stop'],
    );
  });

  test('PostToolUse: decision block + reason, additionalContext, updatedToolOutput (and the older updatedMCPToolOutput)', async () => {
    const post = (specific: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      reply(0, json({ ...extra, hookSpecificOutput: { hookEventName: 'PostToolUse', ...specific } }));
    const r = await fire(
      'PostToolUse',
      [
        post({ additionalContext: 'lint: 2 warnings' }, { decision: 'block', reason: 'fix the lint errors' }),
        post({ updatedMCPToolOutput: { old: true } }),
      ],
      { ...bash, tool_response: { stdout: 'secret' } },
    );
    assert.deepEqual(r.output, {
      continue: true,
      systemMessages: [],
      errors: [],
      blocks: [{ command: r.runs[0].command, reason: 'fix the lint errors', exit2: false }],
      contexts: [{ text: 'lint: 2 warnings', plain: false }],
      decision: 'block',
      reason: 'fix the lint errors',
      additionalContext: 'lint: 2 warnings',
      updatedToolOutput: { old: true },
    });
    const both = await fire('PostToolUse', [post({ updatedMCPToolOutput: 'mcp', updatedToolOutput: 'new' })], bash);
    assert.equal(both.output.updatedToolOutput, 'new');
  });

  test('UserPromptSubmit: decision block + reason; SessionStart additionalContext', async () => {
    const u = await fire('UserPromptSubmit', [reply(0, json({ decision: 'block', reason: 'the prompt contains a password' }))], {
      prompt: 'my password is x',
    });
    assert.deepEqual([u.output.decision, u.output.reason], ['block', 'the prompt contains a password']);
    const s = await fire(
      'SessionStart',
      [reply(0, json({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'ctx' } }))],
      { source: 'resume' },
    );
    assert.equal(s.output.additionalContext, 'ctx');
  });

  test('Stop: a real gate blocks the first stop (Claude goes on with the reason) and lets the second one through', async () => {
    const hooks = [cmd(fx('cc-stop-gate.mjs'))];
    const first = await fire('Stop', hooks, { stop_hook_active: false, last_assistant_message: 'All done.' });
    assert.deepEqual([first.output.decision, first.output.reason], ['block', 'Run the tests before stopping (last answer: All done.)']);
    const second = await fire('Stop', hooks, { stop_hook_active: true });
    assert.deepEqual(second.output, { continue: true, systemMessages: [], errors: [], blocks: [], contexts: [] });
  });

  test('decision block is ignored where the event cannot block (Notification), and approve means nothing outside PreToolUse', async () => {
    const n = await fire('Notification', [reply(0, json({ decision: 'block', reason: 'x' }))], {
      notification_type: 'idle_prompt',
      message: 'm',
    });
    assert.deepEqual(n.output, { continue: true, systemMessages: [], errors: [], blocks: [], contexts: [] });
    const s = await fire('Stop', [reply(0, json({ decision: 'approve' }))]);
    assert.equal(s.output.decision, undefined);
  });

  test('aggregateClaude is pure: every decision pair resolves by deny > defer > ask > allow', () => {
    const order = ['allow', 'ask', 'defer', 'deny'] as const;
    const run = (d: string): { command: string; where: string; reading: ClaudeRunReading } => ({
      command: d,
      where: d,
      reading: { response: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: d } } },
    });
    for (const a of order) {
      for (const b of order) {
        const want = order[Math.max(order.indexOf(a), order.indexOf(b))];
        assert.equal(aggregateClaude('PreToolUse', [run(a), run(b)]).output.permissionDecision, want, `${a} + ${b}`);
      }
    }
    assert.deepEqual(aggregateClaude('PreToolUse', []).output, {
      continue: true,
      systemMessages: [],
      errors: [],
      blocks: [],
      contexts: [],
    });
  });
});

describe('Claude Code hooks in a session', () => {
  test("a session's command hooks run in shells started ahead from the second event, with the same input and answer; closing the session leaves no process", async () => {
    const projectDir = tmpDir('hookline-cc-');
    const out = path.join(projectDir, 'pids');
    const config = configOf({
      PreToolUse: [
        {
          hooks: [
            cmd(
              `cat >> ${q(out)}; echo >> ${q(out)}; echo $$ >> ${q(out)}; echo '${pre({ permissionDecision: 'deny', permissionDecisionReason: 'no' })}'`,
            ),
          ],
        },
      ],
    });
    const session = new ClaudeSession();
    const first = await fireClaude(config, 'PreToolUse', bash, { projectDir, session });
    const pools = poolsOf(session.processes);
    assert.ok(pools, 'a shell pool was started');
    await pools.ready();
    const waiting = pools.info().flatMap((i) => i.pids);
    const second = await fireClaude(config, 'PreToolUse', bash, { projectDir, session });
    for (const r of [first, second]) assert.equal(r.runs[0].response?.hookSpecificOutput?.permissionDecision, 'deny');
    assert.deepEqual(pools.counts, { warm: 0, shell: 1, cold: 1, reported: 0 });
    const lines = fs.readFileSync(out, 'utf8').trim().split('\n');
    assert.equal(JSON.parse(lines[2]).tool_input.command, 'ls', 'the second run read its input');
    assert.ok(waiting.includes(Number(lines[3])), 'the second run was a waiting shell');
    await pools.ready();
    const left = pools.info().flatMap((i) => i.pids);
    await session.close();
    assert.deepEqual(await survivors(left), []);
  });
});
