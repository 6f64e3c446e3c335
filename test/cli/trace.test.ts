import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';
import { cmd, hook, makeProject, runCli } from '../helpers.js';
import { DECISION_COLOURS } from '../../src/cli/timeline.js';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((f) => fs.existsSync(f));

// One project for the file: a guard that denies `rm`, the same guard in shadow mode, traced to its own folder.
const p = makeProject({
  user: {
    hooks: {
      BeforeTool: [
        {
          matcher: 'run_shell_command',
          hooks: [cmd(hook('trace-guard.sh'), { name: 'guard' }), cmd(hook('trace-guard.sh'), { name: 'try-guard', shadow: true })],
        },
      ],
    },
  },
});
const traces = path.join(p.home, 'traces');
const env = { ...p.env, HOOKLINE_TRACE: 'inputs', HOOKLINE_TRACE_DIR: traces };
const call = (command: string) => JSON.stringify({ tool_name: 'run_shell_command', tool_input: { command } });

let fired: Promise<void> | undefined;
/** Two events of session s1 from two `hookline fire` processes: one allowed, one denied. */
function fireBoth(): Promise<void> {
  fired ??= (async () => {
    for (const command of ['ls', 'rm -rf build']) {
      const r = await runCli(['fire', 'BeforeTool', '--input', '-', '--session-id', 's1'], { cwd: p.dir, env, input: call(command) });
      assert.equal(r.code, 0, r.stderr);
    }
  })();
  return fired;
}

test('fire records each hook run in the session trace; a shadow hook is shown as "would have denied", not enforced', async () => {
  const r = await runCli(['fire', 'BeforeTool', '--input', '-', '--session-id', 'solo'], {
    cwd: p.dir,
    env: { ...env, HOOKLINE_TRACE: '1' },
    input: call('rm -rf x'),
  });
  const out = r.json();
  assert.equal(out.output.decision, 'deny');
  assert.equal(out.runs[1].shadow, true);
  assert.match(
    r.stderr,
    /shadow: BeforeTool hook "try-guard" would have denied `run_shell_command`: rm is not allowed here \(not enforced\)/,
  );
  const lines = fs
    .readFileSync(path.join(traces, 'solo.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    lines.map((l) => [l.kind, l.hook ?? null, l.decision, l.shadow ?? false]),
    [
      ['run', 'guard', 'deny', false],
      ['run', 'try-guard', 'deny', true],
      ['fire', null, 'deny', false],
    ],
  );
  assert.equal(lines[2].inputJson, undefined, 'inputs only with trace.inputs');
  assert.match(lines[0].stderr, /token \[redacted\]/);
  const off = await runCli(['fire', 'BeforeTool', '--input', '-', '--session-id', 'quiet'], {
    cwd: p.dir,
    env: { ...env, HOOKLINE_TRACE: '0' },
    input: call('ls'),
  });
  assert.equal(off.code, 0);
  assert.equal(fs.existsSync(path.join(traces, 'quiet.jsonl')), false);
});

test('trace prints the latest session; explain tells the story of the last deny; stats per hook', async () => {
  await fireBoth();
  const t = await runCli(['trace', 's1'], { env });
  assert.equal(t.code, 0, t.stderr);
  assert.match(t.stdout, /session s1 .*: 2 event\(s\), 4 hook run\(s\)/);
  assert.match(t.stdout, /2 +\S+ +gemini BeforeTool run_shell_command \{"command":"rm -rf build"\} → deny: rm is not allowed here/);
  assert.match(t.stdout, /deny +try-guard .*\[shadow: not enforced\]/);
  const json = (await runCli(['trace', 's1', '--json'], { env })).json();
  assert.equal(json.filter((l: { kind: string }) => l.kind === 'fire').length, 2);
  assert.deepEqual(json.at(-1).inputJson.tool_input, { command: 'rm -rf build' });

  const e = await runCli(['explain', 's1'], { env });
  assert.equal(e.code, 0, e.stderr);
  assert.match(e.stdout, /Event 2 of 2 in session s1: gemini BeforeTool for run_shell_command/);
  assert.match(e.stdout, /1\. guard \(user, .*settings\.json\): deny — "rm is not allowed here"/);
  assert.match(e.stdout, /2\. try-guard .*would have answered deny \(shadow mode: not enforced\)/);
  assert.match(e.stdout, /What the agent did: `run_shell_command` did not run/);
  const first = await runCli(['explain', 's1', '1'], { env });
  assert.match(first.stdout, /Event 1 of 2 .*\n[\s\S]*Result: allow/);
  const bad = await runCli(['explain', 's1', '7'], { env });
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /event 7 is not in trace .*s1\.jsonl: it has events 1 to 2/);
  const listed = await runCli(['trace', '--list'], { env });
  assert.match(listed.stdout, /^\S+Z {2}s1$/m);
  const missing = await runCli(['trace', 'nope'], { env });
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /no trace for session "nope"/);

  const s = (await runCli(['stats', 's1', '--json'], { env })).json();
  const guard = s.hooks.find((h: { hook: string }) => h.hook === 'guard');
  assert.deepEqual([guard.runs, guard.denies, guard.denyRate, guard.errors], [2, 1, 0.5, 0]);
  assert.ok(guard.p95Ms >= guard.p50Ms);
});

/** Pixels of a PNG whose colour is within `tol` of `hex`. */
function countColour(png: PNG, hex: string, tol = 3): number {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  let n = 0;
  for (let i = 0; i < png.data.length; i += 4)
    if (Math.abs(png.data[i] - r) <= tol && Math.abs(png.data[i + 1] - g) <= tol && Math.abs(png.data[i + 2] - b) <= tol) n++;
  return n;
}

function chromium(args: string[]): Promise<{ code: number | null; stdout: string }> {
  // A profile of its own per run: two browsers at once never share one.
  const profile = fs.mkdtempSync(path.join(p.home, 'chromium-'));
  const flags = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--hide-scrollbars',
    '--force-color-profile=srgb',
    `--user-data-dir=${profile}`,
  ];
  return new Promise((resolve, reject) => {
    const c = spawn(CHROMIUM!, [...flags, ...args], { stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    c.stdout.on('data', (d) => (stdout += d));
    c.on('error', reject);
    c.on('close', (code) => resolve({ code, stdout }));
  });
}

test('trace --html writes a timeline that headless Chromium draws with a bar per run in the decision colours', {
  skip: CHROMIUM ? false : 'chromium is not installed (apt-get install -y chromium)',
}, async () => {
  await fireBoth();
  const page = path.join(p.home, 'timeline.html');
  const w = await runCli(['trace', 's1', '--html', page], { env });
  assert.equal(w.code, 0, w.stderr);
  const shot = path.join(p.home, 'timeline.png');
  const url = `file://${page}`;
  const [s, dom] = await Promise.all([chromium([`--screenshot=${shot}`, '--window-size=1000,420', url]), chromium(['--dump-dom', url])]);
  assert.equal(s.code, 0);
  assert.equal((dom.stdout.match(/class="bar/g) ?? []).length, 4);
  assert.equal((dom.stdout.match(/class="bar shadow"/g) ?? []).length, 2);
  const png = PNG.sync.read(fs.readFileSync(shot));
  assert.deepEqual([png.width, png.height], [1000, 420]);
  // Not blank, and both decisions drawn: at least a bar's worth of each colour.
  assert.ok(countColour(png, '#ffffff') < png.width * png.height * 0.95, 'the page is not blank');
  assert.ok(countColour(png, DECISION_COLOURS.allow) > 8 * 20, 'an allow bar is drawn');
  assert.ok(countColour(png, DECISION_COLOURS.deny) > 8 * 20, 'a deny bar is drawn');
});
