// SpatialAgent (seed 004): "Hook Events" (context variables), "Bash Hooks", "Matchers",
// "Decision Control" and the "Examples", with real hook processes; and the deliberate fix:
// a context variable is never interpreted by the shell.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fireSpatialAgent } from '../../src/dialects/spatialagent/run.js';
import { expandShell, expandPlain, pyStr, contextEnv } from '../../src/dialects/spatialagent/variables.js';
import { saMatches } from '../../src/dialects/spatialagent/matcher.js';
import type { SaEvent } from '../../src/dialects/spatialagent/events.js';
import { findNamed, fx, q, read, saSetup, tmpDir } from './util.js';
import { alive, readWhenWritten, waitUntil } from '../helpers.js';

const bash = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'bash', command, ...extra });

async function fire(event: SaEvent, hooks: unknown[], vars: Record<string, unknown>) {
  const { dir, config } = saSetup({ hooks: { [event]: hooks } });
  assert.deepEqual(
    config.problems.filter((p) => p.severity === 'error'),
    [],
  );
  return { dir, r: await fireSpatialAgent(config, event, vars, { cwd: dir }) };
}

/** The variables a hook sees in its environment (the names given), as KEY=value lines. */
async function envSeen(event: SaEvent, vars: Record<string, unknown>): Promise<Record<string, string>> {
  const out = path.join(tmpDir(), 'env');
  const names = Object.keys(vars).map((k) => k.toUpperCase());
  await fire(event, [bash(`for v in ${names.join(' ')}; do printf '%s=%s\\0' "$v" "\${!v}"; done > ${q(out)}`)], vars);
  return Object.fromEntries(
    read(out)
      .split('\0')
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

describe('SpatialAgent events: the context variables reach the hook as environment variables', () => {
  test('agent lifecycle: Start ($QUERY, $THREAD_ID, $MAX_STEP, $TOOLS) and Stop', async () => {
    assert.deepEqual(
      await envSeen('Start', { QUERY: 'find cell types', THREAD_ID: 't-1', MAX_STEP: 20, TOOLS: ['execute_bash', 'execute_python'] }),
      {
        QUERY: 'find cell types',
        THREAD_ID: 't-1',
        MAX_STEP: '20',
        TOOLS: "['execute_bash', 'execute_python']",
      },
    );
    assert.deepEqual(await envSeen('Stop', { QUERY: 'q', ITERATION_COUNT: 3, CONCLUSION: 'done', FINAL_STATE: { ok: true } }), {
      QUERY: 'q',
      ITERATION_COUNT: '3',
      CONCLUSION: 'done',
      FINAL_STATE: "{'ok': True}",
    });
  });

  test('planning phase: PrePlan ($STEP, $MESSAGES, $SYSTEM_PROMPT) and PostPlan (booleans as Python writes them)', async () => {
    assert.deepEqual(await envSeen('PrePlan', { STEP: 1, MESSAGES: [{ role: 'user', content: "it's" }], SYSTEM_PROMPT: 'You are…' }), {
      STEP: '1',
      MESSAGES: `[{'role': 'user', 'content': "it's"}]`,
      SYSTEM_PROMPT: 'You are…',
    });
    assert.deepEqual(await envSeen('PostPlan', { STEP: 2, RESPONSE: 'r', NEXT_STEP: 'act', HAS_ACT: true, HAS_CONCLUSION: false }), {
      STEP: '2',
      RESPONSE: 'r',
      NEXT_STEP: 'act',
      HAS_ACT: 'True',
      HAS_CONCLUSION: 'False',
    });
  });

  test('action phase: PreAct ($CODE, $CODE_TYPE, $RAW_CODE, $ITERATION) and PostAct ($RESULT, $IS_ERROR)', async () => {
    assert.deepEqual(await envSeen('PreAct', { CODE: 'ls -la', CODE_TYPE: 'bash', RAW_CODE: '<execute>ls -la</execute>', ITERATION: 1 }), {
      CODE: 'ls -la',
      CODE_TYPE: 'bash',
      RAW_CODE: '<execute>ls -la</execute>',
      ITERATION: '1',
    });
    assert.deepEqual(await envSeen('PostAct', { CODE: 'x', CODE_TYPE: 'python', RESULT: 'ok\n', IS_ERROR: false, ITERATION: 2 }), {
      CODE: 'x',
      CODE_TYPE: 'python',
      RESULT: 'ok\n',
      IS_ERROR: 'False',
      ITERATION: '2',
    });
  });

  test('tool execution: PreToolUse ($TOOL, $CODE or $COMMAND, $CODE_TYPE) and PostToolUse ($RESULT, $SUCCESS)', async () => {
    assert.deepEqual(await envSeen('PreToolUse', { TOOL: 'execute_bash', COMMAND: 'ls', CODE_TYPE: 'bash' }), {
      TOOL: 'execute_bash',
      COMMAND: 'ls',
      CODE_TYPE: 'bash',
    });
    assert.deepEqual(await envSeen('PostToolUse', { TOOL: 'execute_python', CODE: 'print(1)', RESULT: '1', SUCCESS: true }), {
      TOOL: 'execute_python',
      CODE: 'print(1)',
      RESULT: '1',
      SUCCESS: 'True',
    });
  });

  test('other: PreRoute and PreConclusion run their hooks (no documented variables)', async () => {
    for (const e of ['PreRoute', 'PreConclusion'] as const) {
      const { r } = await fire(e, [bash('exit 0'), bash('exit 2')], {});
      assert.deepEqual(r.output, { decision: 'block', reason: 'Command exited with code 2' }, e);
    }
  });

  test('lower-case input names are the same variables', async () => {
    assert.deepEqual(await envSeen('PreAct', { code: 'ls' }), { CODE: 'ls' });
  });
});

describe('SpatialAgent bash hooks', () => {
  test('exit 0 approves, non-zero blocks ("Command exited with code <n>")', async () => {
    assert.deepEqual((await fire('PreAct', [bash(`${fx('sa-exit.sh')} 0`)], { CODE: 'x' })).r.output, { decision: 'approve', reason: '' });
    const { r } = await fire('PreAct', [bash(`${fx('sa-exit.sh')} 3`)], { CODE: 'x' });
    assert.deepEqual(r.output, { decision: 'block', reason: 'Command exited with code 3' });
    assert.equal(r.runs[0].exitCode, 3);
    assert.equal(r.runs[0].success, true, 'a block is not an error');
  });

  test('a JSON {"decision", "reason"} on stdout decides, and wins over the exit code', async () => {
    const blockAt0 = await fire('PreAct', [bash(`${fx('sa-exit.sh')} 0 '{"decision": "block", "reason": "not today"}'`)], {});
    assert.deepEqual(blockAt0.r.output, { decision: 'block', reason: 'not today' });
    const approveAt1 = await fire('PreAct', [bash(`${fx('sa-exit.sh')} 1 '{"decision": "approve", "reason": "fine"}'`)], {});
    assert.deepEqual(approveAt1.r.output, { decision: 'approve', reason: '' });
    assert.equal(approveAt1.r.runs[0].reason, 'fine');
  });

  test('the JSON may be embedded in other output, or on stderr', async () => {
    const { r } = await fire('PostAct', [bash(fx('sa-stderr.sh'))], { RESULT: 'x' });
    assert.deepEqual(r.output, { decision: 'block', reason: 'found on stderr' });
  });

  test("the seed's logging example: echo 'Processing: $QUERY' >> file (the value appears inside single quotes)", async () => {
    const log = path.join(tmpDir(), 'spatialagent.log');
    const { r } = await fire('Start', [bash(`echo 'Processing: $QUERY' >> ${q(log)}`, { timeout: 30 })], { QUERY: "what's in sample A?" });
    assert.equal(r.output.decision, 'approve');
    assert.equal(read(log), "Processing: what's in sample A?\n");
  });

  test('$VAR and ${VAR} are filled in; $CODE_TYPE is not $CODE + "_TYPE"; unknown names are left to the shell', async () => {
    const out = path.join(tmpDir(), 'args');
    await fire('PreAct', [bash(`${fx('sa-capture.sh')} ${q(out)} $CODE "\${CODE}" $CODE_TYPE "x$NOT_A_VAR" "$ITERATION"`)], {
      CODE: 'print(1)',
      CODE_TYPE: 'python',
      ITERATION: 4,
    });
    assert.deepEqual(
      read(out)
        .split('\n')
        .filter((l) => l.startsWith('arg=')),
      ['arg=print(1)', 'arg=print(1)', 'arg=python', 'arg=x', 'arg=4'],
    );
  });

  test('hooks run in the project folder', async () => {
    const { dir, r } = await fire('Start', [bash('pwd -P')], {});
    assert.equal(r.runs[0].stdout.trim(), dir);
  });
});

describe('SpatialAgent: a context variable is never interpreted by the shell (deliberate fix)', () => {
  const HOSTILE = [
    `"; touch PWNED; echo "`,
    '$(touch PWNED)',
    '`touch PWNED`',
    "'; touch PWNED; echo '",
    '\\"; touch PWNED #',
    'a\nb; touch PWNED',
    '$((1+1)) ${HOME} * ?',
  ];

  test('every quoting context gives the exact value, and nothing runs', async () => {
    for (const value of HOSTILE) {
      const out = tmpDir();
      const commands = [
        `printf '%s' "$QUERY" > ${q(out)}/dq`,
        `printf '%s' $QUERY > ${q(out)}/bare`,
        `printf '%s' '$QUERY' > ${q(out)}/sq`,
        `printf '%s' "\${QUERY}" > ${q(out)}/braced`,
        `echo "$(printf '%s' "$CODE")" > ${q(out)}/subst`,
        `echo "$(date +%Y): $QUERY" > ${q(out)}/log`,
      ];
      const { dir, r } = await fire(
        'Start',
        commands.map((c) => bash(c)),
        { QUERY: value, CODE: value },
      );
      assert.equal(r.output.decision, 'approve', value);
      assert.deepEqual(findNamed(dir, 'PWNED'), [], `something ran for ${JSON.stringify(value)}`);
      assert.deepEqual(findNamed(out, 'PWNED'), []);
      assert.equal(fs.existsSync(path.join(process.cwd(), 'PWNED')), false);
      assert.equal(read(path.join(out, 'dq')), value);
      assert.equal(read(path.join(out, 'bare')), value, 'one word, no globbing nor splitting');
      assert.equal(read(path.join(out, 'sq')), value);
      assert.equal(read(path.join(out, 'braced')), value);
      assert.equal(read(path.join(out, 'subst')), value + '\n');
      assert.equal(read(path.join(out, 'log')), `${new Date().getFullYear()}: ${value}\n`, "the hook's own $(date) still runs");
    }
  });

  test('through $CODE in the Block Dangerous Commands example', async () => {
    const { dir, r } = await fire('PreAct', [bash(`if echo "$CODE" | grep -qE '^(rm -rf|sudo)'; then exit 1; fi`)], {
      CODE: '"; touch PWNED; echo "',
      CODE_TYPE: 'bash',
    });
    assert.equal(r.output.decision, 'approve');
    assert.deepEqual(findNamed(dir, 'PWNED'), []);
  });

  test('expandShell: values are escaped, never raw', () => {
    assert.equal(expandShell('echo $QUERY', { QUERY: 'safe-word' }), 'echo safe-word');
    assert.equal(expandShell('echo "$QUERY"', { QUERY: 'a b' }), `echo ""$'a\\x20b'""`);
    assert.equal(expandShell("echo 'x $QUERY'", { QUERY: '$(id)' }), `echo 'x '$'\\x24\\x28id\\x29'''`);
    assert.equal(expandShell('echo \\$QUERY', { QUERY: 'v' }), 'echo \\$QUERY', 'an escaped dollar stays literal');
  });

  test('$ARGUMENTS: the whole context as JSON, as SpatialAgent (keys in lower case)', () => {
    assert.equal(expandPlain('args: $ARGUMENTS', { CODE: 'ls', STEP: 2, OK: true }), 'args: {"code": "ls", "step": 2, "ok": true}');
  });

  test('values are written as Python str() writes them', () => {
    assert.equal(pyStr(null), 'None');
    assert.equal(pyStr([1, 'a', null, false]), "[1, 'a', None, False]");
    assert.deepEqual(contextEnv({ A: 1.5, B: 'x' }), { A: '1.5', B: 'x' });
  });
});

describe('SpatialAgent matchers', () => {
  const hookWith = (matcher: unknown) => [{ type: 'bash', command: 'exit 1', matcher }];
  const blocks = async (event: SaEvent, matcher: unknown, vars: Record<string, unknown>) =>
    (await fire(event, hookWith(matcher), vars)).r.runs.length === 1;

  test('code_type: the hook runs only for that code type', async () => {
    assert.equal(await blocks('PreAct', { code_type: 'bash' }, { CODE: 'ls', CODE_TYPE: 'bash' }), true);
    assert.equal(await blocks('PreAct', { code_type: 'bash' }, { CODE: 'print()', CODE_TYPE: 'python' }), false);
  });

  test('tool: string values are regular expressions, matched from the start as re.match', async () => {
    assert.equal(await blocks('PreToolUse', { tool: 'execute_.*' }, { TOOL: 'execute_python' }), true);
    assert.equal(await blocks('PreToolUse', { tool: 'execute_bash|execute_python' }, { TOOL: 'execute_python' }), true);
    assert.equal(await blocks('PreToolUse', { tool: 'bash' }, { TOOL: 'execute_bash' }), false, 'anchored at the start');
    assert.equal(await blocks('PreToolUse', { tool: 'execute' }, { TOOL: 'execute_bash' }), true, 'not anchored at the end');
    assert.equal(await blocks('PreToolUse', { tool: '^execute_bash$' }, { TOOL: 'execute_bash_v2' }), false);
  });

  test('step: a number is compared for equality; a string is a regex on its text', async () => {
    assert.equal(await blocks('PrePlan', { step: 1 }, { STEP: 1 }), true);
    assert.equal(await blocks('PrePlan', { step: 5 }, { STEP: 1 }), false);
    assert.equal(await blocks('PrePlan', { step: '^[1-3]$' }, { STEP: 2 }), true);
    assert.equal(await blocks('PrePlan', { step: '^[1-3]$' }, { STEP: 7 }), false);
  });

  test('all fields must match; a variable the event lacks never matches', async () => {
    assert.equal(
      await blocks('PreToolUse', { tool: 'execute_bash', code_type: 'bash' }, { TOOL: 'execute_bash', CODE_TYPE: 'bash' }),
      true,
    );
    assert.equal(
      await blocks('PreToolUse', { tool: 'execute_bash', code_type: 'bash' }, { TOOL: 'execute_bash', CODE_TYPE: 'python' }),
      false,
    );
    assert.equal(await blocks('Start', { tool: '.*' }, { QUERY: 'q' }), false);
    assert.equal(saMatches(undefined, {}), true, 'no matcher: always');
  });
});

describe('SpatialAgent decision control', () => {
  test('hooks run in order and the first block stops the chain', async () => {
    const log = path.join(tmpDir(), 'log');
    const { r } = await fire(
      'PreAct',
      [bash(`echo one >> ${q(log)}`), bash(`echo two >> ${q(log)}; exit 9`), bash(`echo three >> ${q(log)}`)],
      { CODE: 'x' },
    );
    assert.equal(read(log), 'one\ntwo\n');
    assert.deepEqual(r.output, { decision: 'block', reason: 'Command exited with code 9' });
    assert.deepEqual(
      r.runs.map((x) => x.decision),
      ['approve', 'block'],
    );
  });

  test('a hook that errors approves: a timeout (in seconds) kills it and the chain goes on', async () => {
    const started = Date.now();
    const { r } = await fire('PreAct', [bash(`${fx('sa-slow.sh')} 5`, { timeout: 0.3 }), bash('exit 0')], { CODE: 'x' });
    assert.ok(Date.now() - started < 2500);
    assert.deepEqual(r.output, { decision: 'approve', reason: '' });
    assert.equal(r.runs[0].error, 'Hook timed out after 0.3s');
    assert.equal(r.runs[0].timedOut, true);
    assert.equal(r.runs[0].decision, 'approve');
    assert.equal(r.runs.length, 2);
  });

  test('a hook that cannot start approves; a flood of output is an error that approves', async () => {
    const { config } = saSetup({ hooks: { Start: [bash('exit 1')] } });
    const gone = await fireSpatialAgent(config, 'Start', {}, { cwd: path.join(tmpDir(), 'missing') });
    assert.equal(gone.output.decision, 'approve');
    assert.match(gone.runs[0].error!, /^Hook error: cannot start hook/);
    const { r } = await fire('Start', [bash(`head -c 2000000 /dev/zero | tr '\\0' x; exit 1`)], {});
    assert.equal(r.output.decision, 'approve');
    assert.equal(r.runs[0].error, 'Hook error: stdout larger than 1048576 bytes');
  });

  test('a cancelled turn stops the running hook (an error: it approves) and runs no more', async () => {
    const log = path.join(tmpDir(), 'log');
    const pids = path.join(tmpDir(), 'pids');
    const { dir, config } = saSetup({ hooks: { PreAct: [bash(`${fx('sa-slow.sh')} 30 ${q(pids)}`), bash(`echo ran >> ${q(log)}`)] } });
    const ac = new AbortController();
    const pending = fireSpatialAgent(config, 'PreAct', { CODE: 'x' }, { cwd: dir, signal: ac.signal });
    // Cancel once the hook is running; had it not been stopped it would block 30 s later.
    const pid = Number(await readWhenWritten(pids));
    ac.abort();
    const r = await pending;
    assert.ok(await waitUntil(() => !alive(pid)), 'the hook process is gone');
    assert.equal(r.runs[0].error, 'Hook error: Hook cancelled');
    assert.equal(r.output.decision, 'approve');
    assert.equal(r.runs.length, 1);
    assert.equal(fs.existsSync(log), false);
  });

  test('display lines: one per run', async () => {
    const { r } = await fire('PreAct', [bash('exit 0'), bash(`${fx('sa-exit.sh')} 1 '{"decision":"block","reason":"no"}'`)], { CODE: 'x' });
    assert.deepEqual(r.lines, [
      '🪝 1. PreAct · exit 0 → approve',
      `🪝 2. PreAct · ${fx('sa-exit.sh')} 1 '{"decision":"block","reason":"no"}' → block: no`,
    ]);
  });
});

describe('SpatialAgent examples', () => {
  test('Log All Queries: echo "$(date): $QUERY" >> log', async () => {
    const log = path.join(tmpDir(), 'queries.log');
    await fire('Start', [bash(`echo "$(date): $QUERY" >> ${q(log)}`)], { QUERY: 'cluster the cells' });
    assert.match(read(log), /^.+\d.*: cluster the cells\n$/);
  });

  test('Block Dangerous Commands, inline as in the seed', async () => {
    const command = `if echo "$CODE" | grep -qE '^(rm -rf|sudo|chmod 777)'; then echo '{"decision": "block", "reason": "Dangerous command"}'; exit 1; fi`;
    const hooks = [{ matcher: { code_type: 'bash' }, type: 'bash', command }];
    assert.deepEqual((await fire('PreAct', hooks, { CODE: 'rm -rf /data', CODE_TYPE: 'bash' })).r.output, {
      decision: 'block',
      reason: 'Dangerous command',
    });
    assert.deepEqual((await fire('PreAct', hooks, { CODE: 'ls -la', CODE_TYPE: 'bash' })).r.output, { decision: 'approve', reason: '' });
    assert.equal(
      (await fire('PreAct', hooks, { CODE: 'sudo rm -rf /', CODE_TYPE: 'python' })).r.runs.length,
      0,
      'the matcher keeps it to bash',
    );
  });

  test('Block Dangerous Commands as a script reading $CODE from its environment', async () => {
    const hooks = [bash(fx('sa-guard.sh'))];
    assert.deepEqual((await fire('PreAct', hooks, { CODE: 'chmod 777 /etc' })).r.output, {
      decision: 'block',
      reason: 'Dangerous command',
    });
    assert.equal((await fire('PreAct', hooks, { CODE: 'echo chmod 777' })).r.output.decision, 'approve');
  });
});
