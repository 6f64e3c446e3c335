import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../helpers.js';
import {
  digest,
  excerpt,
  flushTraces,
  recordFire,
  shadowLine,
  traceFileName,
  traceLines,
  traceSettings,
  TRACE_MAX_BYTES,
  TRACE_MAX_FILES,
  TRACE_PRUNE_SLACK,
  type TraceFire,
} from '../../src/engine/trace.js';
import { firePlan } from '../../src/engine/fire.js';
import type { HookRun } from '../../src/engine/run-hook.js';
import type { HookEntry } from '../../src/config/schema.js';
import { groupFires, loadTrace, parseTrace, pickFire } from '../../src/cli/trace-file.js';
import { compressTime, colourGroup, timelineHtml } from '../../src/cli/timeline.js';
import { hookStats, percentile, slowWarnings } from '../../src/cli/stats.js';
import { combinationRule, consequence, explainText } from '../../src/cli/explain.js';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-trace-'));

function fire(over: Partial<TraceFire> = {}): TraceFire {
  return {
    dialect: 'gemini',
    session: 's1',
    event: 'BeforeTool',
    target: 'run_shell_command',
    cwd: '/work',
    input: { tool_name: 'run_shell_command', tool_input: { command: 'rm -rf x' } },
    decision: 'deny',
    reason: 'no rm',
    runs: [
      { hook: 'guard', source: 'user', start: 1_000, ms: 12, exit: 0, decision: 'deny', reason: 'no rm', stderr: 'checked\n' },
      { hook: 'audit', source: 'user', start: 1_001, ms: 3, exit: 0, decision: 'allow', shadow: true },
    ],
    ...over,
  };
}

test('a fire is written as one line per run and then the fire, linked by a fire id; the input only as a digest', () => {
  const lines = traceLines(fire(), { inputs: false, now: new Date(2_000), fireId: 'f1' });
  assert.equal(lines.length, 3);
  assert.deepEqual(
    lines.map((l) => [l.kind, l.fire]),
    [
      ['run', 'f1'],
      ['run', 'f1'],
      ['fire', 'f1'],
    ],
  );
  const [run, shadow, f] = lines;
  assert.equal(run.kind === 'run' && run.start, new Date(1_000).toISOString());
  assert.equal(run.input, digest(fire().input));
  assert.match(run.input, /^sha256:[0-9a-f]{64}$/);
  assert.equal(shadow.kind === 'run' && shadow.shadow, true);
  assert.equal(f.kind === 'fire' && f.inputJson, undefined);
  assert.equal(f.kind === 'fire' && f.ms, 12);
  assert.ok(!JSON.stringify(lines).includes('rm -rf x'), 'the input itself is not in the trace');
  const withInputs = traceLines(fire(), { inputs: true }).at(-1)!;
  assert.deepEqual(withInputs.kind === 'fire' && withInputs.inputJson, fire().input);
  // The digest is of the input's JSON text, also for an input hashed in slices.
  const sha = (s: string) => `sha256:${createHash('sha256').update(s).digest('hex')}`;
  assert.equal(digest(fire().input), sha(JSON.stringify(fire().input)));
  const large = { prompt: `"é\n${'x'.repeat(3 << 20)}` };
  assert.equal(digest(large), sha(JSON.stringify(large)));
  const big = traceLines(fire({ input: large }), { inputs: true }).at(-1)!;
  assert.deepEqual(big.kind === 'fire' && [big.inputJson, big.inputOmitted], [undefined, 'larger than 262144 bytes']);
});

test('stderr excerpts are capped and secrets in them redacted', () => {
  const token = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789AB';
  assert.equal(excerpt(`using ${token} now`), 'using [redacted] now');
  assert.equal(excerpt('plain words stay as they are'), 'plain words stay as they are');
  const long = excerpt('x'.repeat(5000), 100);
  assert.equal(long.length, 101);
  const line = traceLines(fire({ runs: [{ ...fire().runs[0], stderr: `key=${token}` }] }), { inputs: false })[0];
  assert.equal(line.kind === 'run' && line.stderr, 'key=[redacted]');
});

test('HOOKLINE_TRACE turns tracing off or records inputs; the settings file says the same; a workspace cannot', () => {
  const home = tmp();
  const env = { GEMINI_CLI_HOME: home, GEMINI_CLI_SYSTEM_SETTINGS_PATH: path.join(home, 'none.json') };
  assert.deepEqual(traceSettings(env), { enabled: true, inputs: false, dir: path.join(home, '.gemini', 'hookline', 'traces') });
  assert.equal(traceSettings({ ...env, HOOKLINE_TRACE: '0' }).enabled, false);
  assert.equal(traceSettings({ ...env, HOOKLINE_TRACE: 'off' }).enabled, false);
  assert.equal(traceSettings({ ...env, HOOKLINE_TRACE: 'inputs' }).inputs, true);
  assert.equal(traceSettings({ ...env, HOOKLINE_TRACE_DIR: '/x/y' }).dir, '/x/y');
  fs.mkdirSync(path.join(home, '.gemini'), { recursive: true });
  fs.writeFileSync(path.join(home, '.gemini', 'settings.json'), '{ // user settings\n "trace": {"enabled": false} }');
  assert.equal(traceSettings(env).enabled, false);
  assert.equal(traceSettings({ ...env, HOOKLINE_TRACE: '1' }).enabled, true, 'the variable wins over the file');
  fs.writeFileSync(path.join(home, '.gemini', 'settings.json'), '{"trace": {"inputs": true}}');
  assert.deepEqual([traceSettings(env).enabled, traceSettings(env).inputs], [true, true]);
});

test('recordFire appends to the session file, writes nothing when no hook ran, and rotates a full file', () => {
  const dir = tmp();
  const env = { HOOKLINE_TRACE_DIR: dir, HOOKLINE_TRACE: '1' };
  recordFire(fire({ runs: [] }), env);
  assert.deepEqual(fs.readdirSync(dir), []);
  recordFire(fire(), env);
  recordFire(fire({ decision: 'allow' }), env);
  const file = path.join(dir, 's1.jsonl');
  const t = loadTrace(file);
  assert.equal(t.fires.length, 2);
  assert.deepEqual(
    t.fires.map((f) => [f.fire.decision, f.runs.length]),
    [
      ['deny', 2],
      ['allow', 2],
    ],
  );
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  fs.appendFileSync(file, 'x'.repeat(TRACE_MAX_BYTES));
  recordFire(fire(), env);
  flushTraces();
  assert.ok(fs.existsSync(path.join(dir, 's1.1.jsonl')));
  assert.equal(parseTrace(fs.readFileSync(file, 'utf8')).lines.length, 3, 'the new file starts with the new lines');
  // Reading takes the rotated part first, and counts the cut line.
  const both = loadTrace(file);
  assert.equal(both.fires.length, 3);
  assert.equal(both.skipped, 1);
  recordFire(fire({ session: '../../etc/x' }), env);
  flushTraces();
  assert.ok(fs.existsSync(path.join(dir, traceFileName('../../etc/x'))));
  assert.match(traceFileName('../../etc/x'), /^[0-9a-f]{32}\.jsonl$/);
});

test('old session traces go in batches: past the cap and its slack, the oldest go down to the cap', () => {
  const dir = tmp();
  const env = { HOOKLINE_TRACE_DIR: dir };
  const limit = TRACE_MAX_FILES + TRACE_PRUNE_SLACK;
  // Sessions old-0 … old-(limit-2), oldest first by modification time.
  for (let i = 0; i < limit - 1; i++) {
    const f = path.join(dir, `old-${i}.jsonl`);
    fs.writeFileSync(f, '');
    fs.utimesSync(f, 1_000 + i, 1_000 + i);
  }
  recordFire(fire({ session: 'at-limit' }), env);
  flushTraces();
  const count = () => fs.readdirSync(dir).filter((n) => n.endsWith('.jsonl')).length;
  assert.equal(count(), limit, 'at the cap and its slack: nothing pruned yet');
  recordFire(fire({ session: 'past-limit' }), env);
  flushTraces();
  const left = fs.readdirSync(dir);
  assert.equal(left.length, TRACE_MAX_FILES);
  assert.ok(left.includes('at-limit.jsonl') && left.includes('past-limit.jsonl'), 'the newest stay');
  // 221 files, 200 kept: old-0 … old-20 went.
  assert.ok(!left.includes('old-0.jsonl') && !left.includes(`old-${limit - TRACE_MAX_FILES}.jsonl`), 'the oldest went');
  assert.ok(left.includes(`old-${limit - TRACE_MAX_FILES + 1}.jsonl`));
});

test('fires recorded close together are written together a moment later, in order, off the fire itself', async () => {
  const dir = tmp();
  const env = { HOOKLINE_TRACE_DIR: dir, HOOKLINE_TRACE: '1' };
  const file = path.join(dir, 's1.jsonl');
  recordFire(fire({ decision: 'deny' }), env);
  recordFire(fire({ decision: 'allow' }), env);
  recordFire(fire({ decision: 'ask' }), env);
  assert.equal(fs.existsSync(file), false, 'nothing is written while the fire answers');
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.deepEqual(
    loadTrace(file).fires.map((f) => f.fire.decision),
    ['deny', 'allow', 'ask'],
  );
  // Each fire line keeps the time it fired at, not the time it was written.
  const before = Date.now();
  recordFire(fire({ decision: 'allow' }), env);
  const after = Date.now();
  await new Promise((resolve) => setTimeout(resolve, 150));
  flushTraces();
  const t = Date.parse(loadTrace(file).fires.at(-1)!.fire.t);
  assert.ok(t >= before && t <= after, `fired between ${before} and ${after}, recorded as ${t}`);
});

test('concurrent processes appending to one trace never split a line', async () => {
  const dir = tmp();
  const mod = path.join(ROOT, 'dist', 'engine', 'trace.js');
  const script = `import { recordFire } from ${JSON.stringify(mod)};
const big = 'e'.repeat(1000);
for (let i = 0; i < 100; i++) recordFire({ dialect: 'gemini', session: 'shared', event: 'BeforeTool', input: { i }, decision: 'allow',
  runs: [{ hook: 'h' + process.argv[1], start: Date.now(), ms: 1, exit: 0, decision: 'allow', stderr: big }] }, { HOOKLINE_TRACE_DIR: ${JSON.stringify(dir)} });`;
  const runs = [1, 2, 3].map(
    (n) =>
      new Promise<number | null>((resolve) => {
        const c = spawn(process.execPath, ['--input-type=module', '-e', script, String(n)], { stdio: 'inherit' });
        c.on('close', resolve);
      }),
  );
  assert.deepEqual(await Promise.all(runs), [0, 0, 0]);
  const t = loadTrace(path.join(dir, 'shared.jsonl'));
  assert.equal(t.skipped, 0);
  assert.equal(t.fires.length, 300);
  assert.ok(t.fires.every((f) => f.runs.length === 1));
});

const run = (name: string, out?: HookRun['output'], shadow = false): HookRun => ({
  name,
  source: 'user',
  exitCode: 0,
  success: true,
  durationMs: 1,
  stdout: '',
  stderr: '',
  ...(out ? { output: out } : {}),
  ...(shadow ? { shadow: true } : {}),
});

test("a shadow hook's answer is left out of the aggregation, in parallel and in a sequential chain", async () => {
  const entries = [{ hook: { name: 'a' } }, { hook: { name: 'b' } }] as unknown as HookEntry[];
  const input = { session_id: 's', transcript_path: '', cwd: '/', hook_event_name: 'BeforeTool', timestamp: '', tool_input: { a: 1 } };
  const answers = [
    run('real', { decision: 'allow' }),
    run('shadowed', { decision: 'deny', reason: 'no', hookSpecificOutput: { tool_input: { a: 2 } } }, true),
  ];
  const parallel = await firePlan('BeforeTool', { entries, sequential: false } as never, input as never, async (_e, _i, i) => answers[i]);
  assert.equal(parallel.output?.decision, 'allow');
  const seen: unknown[] = [];
  const seq = await firePlan(
    'BeforeTool',
    { entries: [entries[1], entries[0]], sequential: true } as never,
    input as never,
    async (_e, inp, i) => {
      seen.push((inp as typeof input).tool_input);
      return answers[1 - i];
    },
  );
  assert.equal(seq.output?.decision, 'allow');
  assert.deepEqual(seen, [{ a: 1 }, { a: 1 }], 'a shadow rewrite does not reach the next hook');
  assert.equal(seq.output?.hookSpecificOutput?.tool_input, undefined);
  assert.equal(
    shadowLine('BeforeTool', 'shadowed', 'deny', 'no', 'run_shell_command'),
    'shadow: BeforeTool hook "shadowed" would have denied `run_shell_command`: no (not enforced)',
  );
  assert.equal(shadowLine('BeforeTool', 'x', 'allow'), undefined);
});

test('the timeline page: a lane per event, a bar per run coloured by decision, a title with digest and stderr, nothing external', () => {
  const dir = tmp();
  const env = { HOOKLINE_TRACE_DIR: dir };
  const hostile = { hook: '<b>x</b>', start: 1_002, ms: 1, exit: 0, decision: 'deny', reason: '<script>alert(1)</script>' };
  recordFire(fire({ runs: [...fire().runs, hostile] }), env);
  recordFire(
    fire({ event: 'AfterTool', decision: 'ok', runs: [{ hook: 'log', start: 900_000, ms: 2, exit: 1, decision: 'error', error: 'boom' }] }),
    env,
  );
  const html = timelineHtml(loadTrace(path.join(dir, 's1.jsonl')));
  assert.equal((html.match(/class="lane"/g) ?? []).length, 2);
  assert.equal((html.match(/class="bar/g) ?? []).length, 4);
  assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  assert.match(html, /&lt;b&gt;x&lt;\/b&gt;/);
  assert.match(html, /data-group="deny"[^>]*background:#c62828/);
  assert.match(html, /class="bar shadow"/);
  assert.match(html, /title="[^"]*input: sha256:[0-9a-f]{64}[^"]*stderr: checked/);
  assert.doesNotMatch(html, /<script|<link|src=|url\(/);
  assert.equal(colourGroup('force_ask'), 'ask');
  assert.equal(colourGroup('approve'), 'allow');
});

test('idle gaps are shortened on the time axis, busy stretches kept', () => {
  const at = compressTime(
    [
      [0, 10],
      [5, 20],
      [1000, 1010],
    ],
    5,
  );
  assert.deepEqual([at(0), at(20), at(1000), at(1010)], [0, 20, 25, 35]);
});

test('stats: p50/p95 by nearest rank, deny rate, errors, and a warning for a consistently slow hook', () => {
  assert.equal(percentile([1, 2, 3, 4], 50), 2);
  assert.equal(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20], 95), 19);
  const line = (hook: string, ms: number, decision: string) =>
    ({
      v: 1,
      kind: 'run',
      t: '',
      session: 's',
      dialect: 'gemini',
      event: 'BeforeTool',
      fire: 'f',
      hook,
      start: '',
      ms,
      exit: 0,
      decision,
      input: '',
    }) as const;
  const stats = hookStats([line('slow', 1500, 'allow'), line('slow', 1800, 'deny'), line('slow', 1200, 'allow'), line('fast', 5, 'error')]);
  const slow = stats.find((s) => s.hook === 'slow')!;
  assert.deepEqual([slow.runs, slow.p50Ms, slow.p95Ms, slow.denyRate, slow.slow], [3, 1500, 1800, 0.333, true]);
  assert.equal(stats.find((s) => s.hook === 'fast')!.errors, 1);
  const warnings = slowWarnings(stats);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /"slow": slow — its median run takes 1\.50 s/);
});

test('explain: picks the last deny, names each answer, the rule and what the agent did', () => {
  const lines = [
    ...traceLines(fire({ decision: 'allow', runs: [fire().runs[1]] }), { inputs: false }),
    ...traceLines(fire(), { inputs: false }),
  ];
  lines.push(...traceLines(fire({ event: 'AfterTool', decision: 'ok' }), { inputs: false }));
  const trace = { file: 'f', session: 's1', lines, fires: groupFires(lines), skipped: 0 };
  const picked = pickFire(trace, undefined);
  assert.equal(picked.index, 2);
  const text = explainText(trace, picked.index, picked.fire);
  assert.match(text, /Event 2 of 3 in session s1: gemini BeforeTool for run_shell_command/);
  assert.match(text, /1\. guard \(user\): deny — "no rm"/);
  assert.match(text, /2\. audit \(user\): would have answered allow \(shadow mode: not enforced\)/);
  assert.match(text, /How they were combined: Gemini settings hooks ran in parallel, merged by OR: any deny or block wins/);
  assert.match(text, /What the agent did: `run_shell_command` did not run; the model was told the reason\./);
  assert.throws(() => pickFire(trace, 9), /event 9 is not in trace f: it has events 1 to 3/);
  // With no enforced deny, the last event a shadow hook would have denied.
  const shadowOnly = [
    ...traceLines(fire({ decision: 'ok', runs: [{ ...fire().runs[0], shadow: true }] }), { inputs: false }),
    ...traceLines(fire({ event: 'AfterTool', decision: 'ok', runs: [fire().runs[1]] }), { inputs: false }),
  ];
  const st = { file: 'f', session: 's1', lines: shadowOnly, fires: groupFires(shadowOnly), skipped: 0 };
  assert.equal(pickFire(st, undefined).index, 1);
  assert.match(explainText(st, 1, st.fires[0]), /Shadow hooks would have changed this: guard \(deny\)\./);
  assert.equal(consequence('UserPromptSubmit', 'block'), 'the prompt was refused; the model was not called');
  assert.equal(consequence('preToolCall', 'ask', 'shell'), 'the user was asked whether `shell` may run');
  // Copilot CLI's camelCase events, and how its hooks combined.
  assert.equal(consequence('preToolUse', 'deny', 'bash'), '`bash` did not run; the model was told the reason');
  assert.equal(consequence('userPromptSubmitted', 'block'), 'the prompt was refused; the model was not called');
  assert.equal(consequence('agentStop', 'block'), 'the answer was not accepted: the agent went on with the reason as its next instruction');
  assert.match(
    combinationRule('copilot', 'preToolUse', true),
    /^Copilot CLI: hooks ran one after another in file order.*the first deny ends the chain/,
  );
});
