// `npm run bench`: each case beside its baseline in the same run; medians, p95 and ratios.
// Writes bench/results.md. Not part of the tests: numbers are reported, never asserted.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { HookEngine } from '../src/engine/index.js';
import { poolsOf, type PrewarmPools } from '../src/run/prewarm.js';
import { unchanged } from '../src/trust/scripts.js';
import { ensureReference, referenceSystem } from './reference.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const QUICK = process.argv.includes('--quick');
const n = (full: number) => (QUICK ? Math.max(2, Math.ceil(full / 5)) : full);

interface Row {
  case: string;
  baseline: string;
  base: number[];
  subject: number[];
  unit: 'ms' | 'µs' | 'MiB';
  target?: string;
  met?: boolean;
  note?: string;
}
const rows: Row[] = [];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];
const fmt = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3));

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/**
 * Runs baseline and subject alternately, in turns, so drift on a busy machine hits both alike. `between`
 * (untimed) runs before each pair: pre-warmed pools refill there, as they do between events.
 */
async function pair(
  count: number,
  base: () => Promise<unknown>,
  subject: () => Promise<unknown>,
  warm = 2,
  between?: () => Promise<unknown>,
): Promise<[number[], number[]]> {
  for (let i = 0; i < warm; i++) {
    await between?.();
    await base();
    await subject();
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < count; i++) {
    await between?.();
    // Each side goes first in every other pair: what one leaves running (an engine starting its
    // waiting shells again after an event) lands on the other side as often as on itself.
    if (i % 2) {
      b.push(await time(subject));
      a.push(await time(base));
    } else {
      a.push(await time(base));
      b.push(await time(subject));
    }
  }
  return [a, b];
}

function project(hooks: unknown, extra: Record<string, unknown> = {}): { dir: string; env: NodeJS.ProcessEnv } {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-bench-'));
  const dir = path.join(base, 'project');
  fs.mkdirSync(path.join(dir, '.gemini'), { recursive: true });
  fs.mkdirSync(path.join(base, 'home', '.gemini'), { recursive: true });
  fs.writeFileSync(path.join(dir, '.gemini', 'settings.json'), JSON.stringify({ hooks, ...extra }));
  const env = {
    ...process.env,
    GEMINI_CLI_HOME: path.join(base, 'home'),
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    GEMINI_CLI_SYSTEM_SETTINGS_PATH: path.join(base, 'none.json'),
  };
  return { dir, env };
}

const engines: HookEngine[] = [];
function engine(hooks: unknown, extra: Record<string, unknown> = {}): HookEngine {
  const p = project(hooks, extra);
  const e = new HookEngine({ cwd: p.dir, env: p.env, sessionId: 'bench-session' });
  e.on('warning', () => {});
  engines.push(e);
  return e;
}

const cmd = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command, ...extra });
const ALLOW = `cat >/dev/null; echo '{"decision":"allow"}'`;
const TOOL_INPUT = { command: 'ls -la' };

/** The floor: what spawning the hook costs with nothing around it. */
function rawSpawn(command: string, stdin: string, cwd: string): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', command], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout.on('data', () => {});
    child.stderr.on('data', () => {});
    child.on('close', () => resolve());
    child.stdin.on('error', () => {});
    child.stdin.end(stdin);
  });
}

async function floor(): Promise<void> {
  // A cold run (no waiting shell), as the raw spawn beside it: what the engine itself adds.
  const e = engine({ BeforeTool: [{ hooks: [cmd(ALLOW)] }] }, { hooksConfig: { prewarm: false } });
  const input = JSON.stringify({ ...e.baseInput('BeforeTool'), tool_name: 'run_shell_command', tool_input: TOOL_INPUT });
  const [a, b] = await pair(
    n(80),
    () => rawSpawn(ALLOW, input, e.cwd),
    () => e.fire('BeforeTool', { tool_name: 'run_shell_command', tool_input: TOOL_INPUT }),
    5,
  );
  const ratio = median(b) / median(a);
  rows.push({
    case: '1 command hook: engine overhead',
    baseline: 'raw `bash -c` spawn from Node',
    base: a,
    subject: b,
    unit: 'ms',
    target: '≤ 1.10×',
    met: ratio <= 1.1,
  });
}

/** No hook configured, beside Gemini CLI's engine on the same (empty) settings: µs per fire. */
async function noHookVsGemini(): Promise<void> {
  if (!ensureReference()) return;
  // No hook configured: what a fire costs when there is nothing to run, µs per fire.
  const e = engine({});
  const ref = await referenceSystem({}, e.cwd);
  const loop = async (fn: () => Promise<unknown>, count: number) => {
    const t0 = performance.now();
    for (let i = 0; i < count; i++) await fn();
    return ((performance.now() - t0) / count) * 1000;
  };
  const fields = { tool_name: 'run_shell_command', tool_input: TOOL_INPUT };
  const a: number[] = [];
  const b: number[] = [];
  for (let round = 0; round < 17; round++) {
    const x = await loop(() => ref.beforeTool('run_shell_command', TOOL_INPUT), 2000);
    const y = await loop(() => e.fire('BeforeTool', fields), 2000);
    if (round >= 2) {
      a.push(x);
      b.push(y);
    }
  }
  rows.push({
    case: 'vs Gemini CLI: no hook configured',
    baseline: 'Gemini CLI 0.61 engine, same settings',
    base: a,
    subject: b,
    unit: 'µs',
    target: '≤ 1 µs',
    met: median(b) <= 1,
  });
}

async function againstReference(): Promise<void> {
  if (!ensureReference()) {
    rows.push({
      case: 'against Gemini CLI',
      baseline: '—',
      base: [NaN],
      subject: [NaN],
      unit: 'ms',
      note: 'reference engine could not be installed',
    });
    return;
  }
  const big = 'x'.repeat(10 * 1024 * 1024);
  const cases: Array<{
    name: string;
    hooks: unknown;
    count: number;
    event?: 'AfterTool';
    response?: unknown;
    target: string;
    goal: (r: number) => boolean;
    /** `hooksConfig.prewarm: false`: no hook runs in a waiting shell. */
    cold?: boolean;
  }> = [
    ...(['1 hook', '8 parallel hooks', '8 sequential hooks'] as const).flatMap((name, i) => {
      const hooks = [
        { BeforeTool: [{ hooks: [cmd(ALLOW)] }] },
        { BeforeTool: [{ hooks: Array.from({ length: 8 }, (_, j) => cmd(`${ALLOW} # ${j}`)) }] },
        { BeforeTool: [{ sequential: true, hooks: Array.from({ length: 8 }, (_, j) => cmd(`${ALLOW} # ${j}`)) }] },
      ][i];
      const count = [40, 20, 12][i];
      return [
        // The default: each hook runs in a shell started (and put in its cgroup) ahead of the event.
        { name, hooks, count, target: i === 0 ? '≤ 0.9×' : '≤ 0.8×', goal: (r: number) => r <= (i === 0 ? 0.9 : 0.8) },
        // hooksConfig.prewarm: false — each run starts its shell, and moves it into its cgroup, at the event.
        { name: `${name}, no waiting shells (prewarm: false)`, hooks, count, target: '≤ 1.0×', goal: (r: number) => r <= 1.0, cold: true },
      ];
    }),
    {
      name: '10 MB tool_response',
      event: 'AfterTool',
      response: { llmContent: big, returnDisplay: 'big' },
      hooks: { AfterTool: [{ hooks: [cmd(ALLOW)] }] },
      count: 10,
      target: '≤ 0.5×',
      goal: (r) => r <= 0.5,
    },
    {
      name: 'slow hook (timeout 500 ms, sleeps 3 s) among 3 fast',
      hooks: {
        BeforeTool: [{ hooks: [cmd('sleep 3; echo {}', { timeout: 500 }), cmd(`${ALLOW} # a`), cmd(`${ALLOW} # b`), cmd(`${ALLOW} # c`)] }],
      },
      count: 3,
      target: '≤ 0.5×',
      goal: (r) => r <= 0.5,
    },
    {
      name: 'grandchild holds stdout 2 s',
      hooks: { BeforeTool: [{ hooks: [cmd(`(sleep 2) & echo '{"decision":"allow"}'`)] }] },
      count: 3,
      target: '≤ 0.5×',
      goal: (r) => r <= 0.5,
    },
  ];
  for (const c of cases) {
    const e = engine(c.hooks, c.cold ? { hooksConfig: { prewarm: false } } : {});
    const ref = await referenceSystem(c.hooks, e.cwd);
    const fields =
      c.event === 'AfterTool'
        ? { tool_name: 'read_file', tool_input: TOOL_INPUT, tool_response: c.response }
        : { tool_name: 'run_shell_command', tool_input: TOOL_INPUT };
    const [a, b] = await pair(
      n(c.count),
      () =>
        c.event === 'AfterTool' ? ref.afterTool('read_file', TOOL_INPUT, c.response) : ref.beforeTool('run_shell_command', TOOL_INPUT),
      () => e.fire(c.event ?? 'BeforeTool', fields),
      c.count > 5 ? 2 : 0,
      c.cold ? undefined : () => ready(e),
    );
    const r = median(b) / median(a);
    if (c.name === '8 parallel hooks') {
      await ready(e);
      const pools = poolsOfEngine(e);
      const count = pools?.info().reduce((k, p) => k + p.pids.length, 0) ?? 0;
      const kib = pools?.rssKiB() ?? NaN;
      rows.push({
        case: 'idle cost: the waiting shells of 8 parallel hooks',
        baseline: '—',
        base: [NaN],
        subject: [kib / 1024],
        unit: 'MiB',
        note: `${count} processes, ${fmt(kib / 1024 / count)} MiB RSS each`,
      });
    }
    rows.push({
      case: `vs Gemini CLI: ${c.name}`,
      baseline: 'Gemini CLI 0.61 engine, same settings',
      base: a,
      subject: b,
      unit: 'ms',
      target: c.target,
      met: c.goal(r),
    });
  }
}

function poolsOfEngine(e: HookEngine): PrewarmPools | undefined {
  return poolsOf((e as unknown as { persistent: Map<string, unknown> }).persistent);
}
/** Waits until the engine's pools have refilled (untimed: events come seconds apart in a session). */
async function ready(e: HookEngine): Promise<void> {
  await poolsOfEngine(e)?.ready();
}

/** One-shot Node and Python hooks in pre-warmed interpreters, beside the same hooks cold and Gemini CLI's engine. */
async function prewarmed(): Promise<void> {
  const haveRef = ensureReference();
  const langs: Array<[string, string]> = [
    ['Node', `node '${path.join(HERE, 'hooks', 'node-hook.mjs')}'`],
    ['Python', `python3 '${path.join(HERE, 'hooks', 'python-hook.py')}'`],
  ];
  const fields = { tool_name: 'run_shell_command', tool_input: TOOL_INPUT };
  for (const [lang, command] of langs) {
    const hooks = { BeforeTool: [{ hooks: [cmd(command)] }] };
    const cold = engine(hooks);
    const warm = engine(hooks, { hooksConfig: { prewarm: true } });
    const [a, b] = await pair(
      n(20),
      () => cold.fire('BeforeTool', fields),
      () => warm.fire('BeforeTool', fields),
      2,
      () => ready(warm),
    );
    rows.push({
      case: `${lang} one-shot hook, pre-warmed interpreter`,
      baseline: 'the same hook, cold (Hookline)',
      base: a,
      subject: b,
      unit: 'ms',
      target: '≤ 10 ms',
      met: median(b) <= 10,
    });
    if (haveRef) {
      const ref = await referenceSystem(hooks, warm.cwd);
      const [g, w] = await pair(
        n(20),
        () => ref.beforeTool('run_shell_command', TOOL_INPUT),
        () => warm.fire('BeforeTool', fields),
        2,
        () => ready(warm),
      );
      rows.push({
        case: `vs Gemini CLI: ${lang} one-shot hook, pre-warmed`,
        baseline: 'Gemini CLI 0.61 engine, same hook',
        base: g,
        subject: w,
        unit: 'ms',
      });
      const [g2, c2] = await pair(
        n(10),
        () => ref.beforeTool('run_shell_command', TOOL_INPUT),
        () => cold.fire('BeforeTool', fields),
        1,
      );
      rows.push({
        case: `vs Gemini CLI: ${lang} one-shot hook, cold`,
        baseline: 'Gemini CLI 0.61 engine, same hook',
        base: g2,
        subject: c2,
        unit: 'ms',
      });
    }
    await ready(warm);
    const pools = poolsOfEngine(warm);
    const kib = pools?.rssKiB() ?? NaN;
    const count = pools?.info().reduce((k, p) => k + p.pids.length, 0) ?? 0;
    rows.push({
      case: `idle cost: the waiting ${lang} interpreters`,
      baseline: '—',
      base: [NaN],
      subject: [kib / 1024],
      unit: 'MiB',
      note: `${count} processes, ${fmt(kib / 1024 / count)} MiB RSS each`,
    });
  }
}

async function noMatch(): Promise<void> {
  const loop = async (fn: () => Promise<unknown>, count: number) => {
    const out: number[] = [];
    for (let round = 0; round < 15; round++) {
      const t0 = performance.now();
      for (let i = 0; i < count; i++) await fn();
      out.push(((performance.now() - t0) / count) * 1000);
    }
    return out;
  };
  const noop = async () => undefined;
  const none = engine({});
  const base = await loop(noop, 5000);
  const a = await loop(() => none.fire('BeforeTool', { tool_name: 'read_file', tool_input: {} }), 5000);
  rows.push({
    case: 'no hook matches',
    baseline: 'an empty async call',
    base,
    subject: a,
    unit: 'µs',
    target: '≤ 1 µs',
    met: median(a) <= 1,
  });
  const thousand = engine({ BeforeTool: Array.from({ length: 1000 }, (_, i) => ({ matcher: `^tool_${i}$`, hooks: [cmd(`echo ${i}`)] })) });
  let k = 0;
  const distinct = await loop(() => thousand.fire('BeforeTool', { tool_name: `other_tool_${k++}`, tool_input: {} }), 2000);
  rows.push({
    case: '1,000 configured hooks, none matches (new tool name each time)',
    baseline: 'an empty async call',
    base,
    subject: distinct,
    unit: 'µs',
    target: '≤ 100 µs',
    met: median(distinct) <= 100,
  });
  const same = await loop(() => thousand.fire('BeforeTool', { tool_name: 'read_file', tool_input: {} }), 5000);
  rows.push({
    case: '1,000 configured hooks, none matches (same tool name)',
    baseline: 'an empty async call',
    base,
    subject: same,
    unit: 'µs',
    target: '≤ 100 µs',
    met: median(same) <= 100,
  });
}

/**
 * What a long-lived engine pays to check a workspace hook's files before each run (real path and
 * bytes): the same script hook as a workspace hook (checked) and as the user's own (never checked).
 */
async function verifiedRuns(): Promise<void> {
  const script = '#!/usr/bin/env bash\ncat >/dev/null\necho \'{"decision":"allow"}\'\n';
  const hook = { BeforeTool: [{ hooks: [cmd('bash .gemini/hooks/allow.sh')] }] };
  const workspace = project(hook);
  const user = project({});
  for (const d of [workspace.dir, user.dir]) {
    fs.mkdirSync(path.join(d, '.gemini', 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(d, '.gemini', 'hooks', 'allow.sh'), script);
  }
  fs.writeFileSync(path.join(user.env.GEMINI_CLI_HOME!, '.gemini', 'settings.json'), JSON.stringify({ hooks: hook }));
  const make = (p: { dir: string; env: NodeJS.ProcessEnv }) => {
    const e = new HookEngine({ cwd: p.dir, env: p.env, sessionId: 'bench-session' });
    e.on('warning', () => {});
    engines.push(e);
    return e;
  };
  const checked = make(workspace);
  const mine = make(user);
  const fields = { tool_name: 'run_shell_command', tool_input: TOOL_INPUT };
  const [a, b] = await pair(
    n(60),
    () => mine.fire('BeforeTool', fields),
    () => checked.fire('BeforeTool', fields),
    3,
    async () => {
      await ready(mine);
      await ready(checked);
    },
  );
  rows.push({
    case: '1 workspace script hook, its files checked before each run (warm engine)',
    baseline: 'the same hook as a user hook (not checked)',
    base: a,
    subject: b,
    unit: 'ms',
    target: '≤ 1.05×',
    met: median(b) / median(a) <= 1.05,
  });
  // The check alone, µs per event: what it adds to an event that runs the hook.
  const probes = [...checked.context.pins.values()][0] ?? [];
  const loop = (fn: () => unknown, count: number) => {
    const t0 = performance.now();
    for (let i = 0; i < count; i++) fn();
    return ((performance.now() - t0) / count) * 1000;
  };
  const noop = () => undefined;
  const base: number[] = [];
  const subject: number[] = [];
  for (let round = 0; round < 12; round++) {
    base.push(loop(noop, 2000));
    subject.push(loop(() => unchanged(probes), 2000));
  }
  rows.push({
    case: 'the check itself: real path and sha256 of the script a workspace hook runs',
    baseline: 'an empty call',
    base,
    subject,
    unit: 'µs',
    target: '≤ 100 µs',
    met: median(subject) <= 100,
  });
}

async function persistentHooks(): Promise<void> {
  const langs: Array<[string, string, number]> = [
    ['Node', `node '${path.join(HERE, 'hooks', 'node-hook.mjs')}'`, 15],
    ['Python', `python3 '${path.join(HERE, 'hooks', 'python-hook.py')}'`, 20],
  ];
  for (const [lang, command, count] of langs) {
    const oneShot = engine({ BeforeTool: [{ hooks: [cmd(command)] }] });
    const pers = engine({ BeforeTool: [{ hooks: [cmd(command, { persistent: true })] }] });
    const fields = { tool_name: 'run_shell_command', tool_input: TOOL_INPUT };
    const a: number[] = [];
    for (let i = 0; i < n(count) + 2; i++) a.push(await time(() => oneShot.fire('BeforeTool', fields)));
    const b: number[] = [];
    // A steady state, as in a long-lived host: Hookline's own code is past V8's lower tiers
    // (about the first 4,000 fires of a process), where a round trip costs a third more.
    for (let i = 0; i < 4000; i++) await pers.fire('BeforeTool', fields);
    for (let i = 0; i < n(3000); i++) b.push(await time(() => pers.fire('BeforeTool', fields)));
    const r = median(a.slice(2)) / median(b);
    const met = lang === 'Node' ? median(b) <= 0.3 && r >= 100 : r >= 10;
    rows.push({
      case: `${lang} hook, persistent process`,
      baseline: `the same ${lang} hook, one-shot process`,
      base: a.slice(2),
      subject: b,
      unit: 'ms',
      target: lang === 'Node' ? '≤ 0.3 ms and ≥ 100× faster' : 'faster',
      met,
      note: `${fmt(r)}× faster`,
    });
  }
}

async function coldStart(): Promise<void> {
  const p = project({ BeforeTool: [{ hooks: [cmd(ALLOW)] }] });
  const input = path.join(p.dir, 'input.json');
  fs.writeFileSync(input, JSON.stringify({ tool_name: 'run_shell_command', tool_input: TOOL_INPUT }));
  const run =
    (args: string[], extra: NodeJS.ProcessEnv = {}) =>
    () =>
      new Promise<void>((resolve) => {
        const c = spawn(process.execPath, args, { cwd: p.dir, env: { ...p.env, ...extra }, stdio: 'ignore' });
        c.on('close', () => resolve());
      });
  const fire = ['fire', 'BeforeTool', '--input', input];
  // The installed command is the bundle (package.json "bin"); its compile cache is filled by the warm-up runs.
  const cases: Array<[string, string, NodeJS.ProcessEnv]> = [
    ['cold start: `hookline fire` with 1 hook (installed bundle)', path.join(ROOT, 'dist', 'bin', 'hookline.cjs'), {}],
    ['cold start: the same, HOOKLINE_NO_CGROUP=1', path.join(ROOT, 'dist', 'bin', 'hookline.cjs'), { HOOKLINE_NO_CGROUP: '1' }],
    ['cold start: the same, unbundled (dist/cli/main.js)', path.join(ROOT, 'dist', 'cli', 'main.js'), {}],
  ];
  for (const [name, entry, extra] of cases) {
    const [a, b] = await pair(n(12), run(['-e', '0']), run([entry, ...fire], extra), 2);
    const ratio = median(b) / median(a);
    rows.push({
      case: name,
      baseline: '`node -e 0`',
      base: a,
      subject: b,
      unit: 'ms',
      target: '≤ 1.5×',
      met: ratio <= 1.5,
      note: `${fmt(median(b) - median(a))} ms over Node's own start`,
    });
  }
}

/** Peak memory of firing a 10 MB event, measured in a fresh process. */
function memory(): void {
  const script = `
    import { HookEngine } from ${JSON.stringify(path.join(ROOT, 'dist', 'engine', 'index.js'))};
    // The payload as a tool's output arrives, one flat string: 'x'.repeat gives a rope that its first
    // reader flattens, a copy the payload itself needs, so it is flattened here, before the measure.
    const big = 'x'.repeat(10 * 1024 * 1024);
    big.indexOf('y');
    const e = new HookEngine({ cwd: process.cwd() });
    await e.fire('AfterTool', { tool_name: 'read_file', tool_input: {}, tool_response: { llmContent: 'warm', returnDisplay: '' } });
    globalThis.gc(); globalThis.gc();
    const before = process.resourceUsage().maxRSS;
    const r = await e.fire('AfterTool', { tool_name: 'read_file', tool_input: {}, tool_response: { llmContent: big, returnDisplay: '' } });
    const after = process.resourceUsage().maxRSS;
    console.log(JSON.stringify({ before, after, ok: r.runs[0]?.success }));`;
  const p = project({ AfterTool: [{ hooks: [cmd(ALLOW)] }] });
  const file = path.join(p.dir, 'mem.mjs');
  fs.writeFileSync(file, script);
  const out = spawnSync(process.execPath, ['--expose-gc', file], { cwd: p.dir, env: p.env, encoding: 'utf8' });
  try {
    const { before, after } = JSON.parse(out.stdout.trim().split('\n').pop()!);
    const copies = ((after - before) * 1024) / (10 * 1024 * 1024);
    rows.push({
      case: 'peak memory added by a 10 MB event',
      baseline: 'the 10 MB payload',
      base: [10],
      subject: [((after - before) * 1024) / 1024 / 1024],
      unit: 'ms',
      target: '≤ ~2 copies',
      met: copies <= 2.2,
      note: `${copies.toFixed(2)} copies (MiB, not ms)`,
    });
  } catch {
    rows.push({
      case: 'peak memory added by a 10 MB event',
      baseline: '—',
      base: [NaN],
      subject: [NaN],
      unit: 'ms',
      note: `measurement failed: ${out.stderr.slice(0, 200)}`,
    });
  }
}

/** A `hookline serve` for the project `p` (one open connection), and a round trip to it: a BeforeTool fire. */
async function server(p: {
  dir: string;
  env: NodeJS.ProcessEnv;
}): Promise<{ call: () => Promise<void>; params: { input: Record<string, unknown> }; close: () => Promise<void> }> {
  const socket = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-sock-')), 's.sock');
  const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'bin', 'hookline.cjs'), 'serve', '--socket', socket], {
    env: p.env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) => readline.createInterface({ input: child.stdout! }).once('line', () => resolve()));
  const conn = net.connect(socket);
  const answers = readline.createInterface({ input: conn });
  let waiting: (() => void) | undefined;
  answers.on('line', () => waiting?.());
  let id = 0;
  const params = {
    event: 'BeforeTool',
    input: { tool_name: 'run_shell_command', tool_input: TOOL_INPUT },
    cwd: p.dir,
    sessionId: 'bench-session',
  };
  const call = () =>
    new Promise<void>((resolve) => {
      waiting = resolve;
      conn.write(`${JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'fire', params })}\n`);
    });
  const close = async () => {
    conn.destroy();
    child.kill('SIGTERM');
    await new Promise((r) => child.on('close', r));
  };
  return { call, params, close };
}

/** Installs `count` Gemini CLI extensions in the project's home, each with a hook for an event the rows do not fire. */
function installExtensions(p: { env: NodeJS.ProcessEnv }, count: number): void {
  const root = path.join(p.env.GEMINI_CLI_HOME!, '.gemini', 'extensions');
  for (let i = 0; i < count; i++) {
    const dir = path.join(root, `ext-${i}`);
    fs.mkdirSync(path.join(dir, 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'gemini-extension.json'), JSON.stringify({ name: `ext-${i}`, version: '1.0.0' }));
    fs.writeFileSync(path.join(dir, 'hooks', 'hooks.json'), JSON.stringify({ hooks: { AfterTool: [{ hooks: [cmd(ALLOW)] }] } }));
  }
  fs.writeFileSync(path.join(root, 'extension-enablement.json'), '{}');
}

/**
 * A fire through a running `hookline serve` beside the engine in-process (no hook) or a raw spawn
 * (one hook); then a server with extensions installed beside one with none.
 */
async function served(): Promise<void> {
  for (const [label, hooks, count, target] of [
    ['no-hook', {}, 2000, 300],
    ['1-hook', { BeforeTool: [{ hooks: [cmd(ALLOW)] }] }, 60, undefined],
  ] as const) {
    const p = project(hooks);
    const s = await server(p);
    const e = new HookEngine({ cwd: p.dir, env: p.env });
    e.on('warning', () => {});
    engines.push(e);
    const us = label === 'no-hook';
    // No hook: the round trip beside the engine in-process. One hook: beside what the hook costs
    // with nothing around it, a raw `bash -c` spawn of it, every call timed on its own.
    const stdin = JSON.stringify({ ...e.baseInput('BeforeTool'), ...s.params.input });
    const baseline = us ? () => e.fire('BeforeTool', s.params.input) : () => rawSpawn(ALLOW, stdin, p.dir);
    const [a, b] = await pair(n(count), baseline, s.call, us ? 50 : 3);
    rows.push({
      case: `${label} fire through \`hookline serve\` (Unix socket)`,
      baseline: us ? 'the engine in-process' : 'raw `bash -c` spawn of the hook',
      base: us ? a.map((x) => x * 1000) : a,
      subject: us ? b.map((x) => x * 1000) : b,
      unit: us ? 'µs' : 'ms',
      ...(target !== undefined
        ? { target: `≤ ${target} µs`, met: median(b) * 1000 <= target }
        : { target: '≤ 1.15×', met: median(b) / median(a) <= 1.15 }),
    });
    await s.close();
  }
  // Installed extensions are checked before every event (a stat of each file they were read
  // from): three of them, with hooks for another event, beside a server with none.
  const plain = await server(project({}));
  const withExtensions = project({});
  installExtensions(withExtensions, 3);
  const extended = await server(withExtensions);
  const [a, b] = await pair(n(2000), plain.call, extended.call, 50);
  rows.push({
    case: 'no-hook fire through `hookline serve`, 3 Gemini CLI extensions installed',
    baseline: 'the same with none installed',
    base: a.map((x) => x * 1000),
    subject: b.map((x) => x * 1000),
    unit: 'µs',
    target: '≤ 1.3×',
    met: median(b) / median(a) <= 1.3,
  });
  await plain.close();
  await extended.close();
}

/** A tools/call through `hookline mcp-proxy` (no hook; one BeforeTool hook) beside the same call made to the server directly. */
async function mcpProxy(): Promise<void> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const server = path.join(ROOT, 'test', 'fixtures', 'mcp', 'server.mjs');
  const connect = async (args: string[], p: { dir: string; env: NodeJS.ProcessEnv }) => {
    const c = new Client({ name: 'bench', version: '1' });
    const env = Object.fromEntries(Object.entries(p.env).filter((e): e is [string, string] => e[1] !== undefined));
    await c.connect(new StdioClientTransport({ command: process.execPath, args, cwd: p.dir, env }));
    return c;
  };
  const call = (c: InstanceType<typeof Client>) => () => c.callTool({ name: 'echo', arguments: { text: 'hi' } });
  const proxied = (hooks: unknown) => {
    const p = project(hooks);
    return connect([path.join(ROOT, 'dist', 'cli', 'main.js'), 'mcp-proxy', '--', process.execPath, server], p);
  };
  const direct = await connect([server], project({}));
  for (const [label, hooks] of [
    ['no hook', {}],
    ['one BeforeTool hook', { BeforeTool: [{ hooks: [cmd(ALLOW)] }] }],
  ] as const) {
    const viaProxy = await proxied(hooks);
    const [a, b] = await pair(n(200), call(direct), call(viaProxy), 10);
    rows.push({
      case: `MCP tools/call through \`hookline mcp-proxy\` (${label})`,
      baseline: 'the server directly',
      base: a,
      subject: b,
      unit: 'ms',
    });
    await viaProxy.close();
  }
  await direct.close();
}

/** A command as an agent runs a hook: through sh, the event on stdin, in the environment given. */
function hostSpawn(command: string, stdin: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', () => {});
    child.on('close', () => resolve(out));
    child.stdin.on('error', () => {});
    child.stdin.end(stdin);
  });
}

/**
 * Hookline inside another agent: one PreToolUse event through the command entries `hookline
 * install` writes (the shell client over loopback, the default on Linux; the Node client over
 * the socket), each to the warm server the first event starts, beside the trivial hook an agent
 * runs of its own (`node -e 0`) and beside the same guard run by the agent directly; Claude
 * Code's http entries (posted()); then with no server to be had (the full relay in a child).
 */
async function relayed(): Promise<void> {
  const { relayCommand } = await import('../src/relay/install.js');
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-bench-relay-'));
  const home = path.join(base, 'home');
  const dir = path.join(base, 'project');
  fs.mkdirSync(path.join(home, '.gemini'), { recursive: true });
  fs.mkdirSync(dir, { recursive: true });
  const socket = path.join(base, 's.sock');
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, HOOKLINE_SOCKET: socket, HOOKLINE_TRACE: '0' };
  const event = JSON.stringify({
    hook_event_name: 'PreToolUse',
    session_id: 'bench',
    transcript_path: '',
    cwd: dir,
    permission_mode: 'default',
    tool_name: 'Bash',
    tool_input: TOOL_INPUT,
    tool_use_id: 'toolu_1',
  });
  const { freePort } = await import('../src/serve/relay-http.js');
  const port = await freePort();
  const settings = path.join(home, '.gemini', 'settings.json');
  const trivial = `${JSON.stringify(process.execPath)} -e 0`;
  // Each agent's own before-tool event, as it sends it.
  const geminiEvent = JSON.stringify({
    session_id: 'bench',
    transcript_path: '',
    cwd: dir,
    hook_event_name: 'BeforeTool',
    timestamp: new Date().toISOString(),
    tool_name: 'run_shell_command',
    tool_input: TOOL_INPUT,
  });
  const copilotEvent = JSON.stringify({ sessionId: 'bench', timestamp: Date.now(), cwd: dir, toolName: 'bash', toolArgs: TOOL_INPUT });
  // The default command entry on Linux (the shell client over loopback) for each agent whose
  // install writes one, then the Node client over the socket.
  const shellClient = (host: 'claude' | 'codex' | 'gemini' | 'copilot', name: string, from: string[] = []) =>
    relayCommand(host, name, from, undefined, undefined, port);
  // Gemini CLI runs Hookline's own settings itself: inside it, Hookline runs the user's Claude Code hooks.
  const claudeSettings = path.join(home, '.claude', 'settings.json');
  fs.mkdirSync(path.dirname(claudeSettings), { recursive: true });
  const hookline = (guard: boolean): [string, unknown] => [settings, guard ? { BeforeTool: [{ hooks: [cmd(ALLOW)] }] } : {}];
  const claude = (guard: boolean): [string, unknown] => [
    claudeSettings,
    guard ? { PreToolUse: [{ matcher: 'Bash', hooks: [cmd(`cat >/dev/null; echo '{}'`)] }] } : {},
  ];
  const entries = [
    {
      // Claude Code's guards are command entries (its other events post: `posted` below).
      kind: 'shell client, loopback',
      host: 'Claude Code',
      name: 'PreToolUse',
      entry: shellClient('claude', 'PreToolUse'),
      input: event,
      from: hookline,
    },
    {
      kind: 'shell client, loopback',
      host: 'Codex',
      name: 'PreToolUse',
      entry: shellClient('codex', 'PreToolUse'),
      input: event,
      from: hookline,
    },
    {
      kind: 'shell client, loopback, --hooks-from claude',
      host: 'Gemini CLI',
      name: 'BeforeTool',
      entry: shellClient('gemini', 'BeforeTool', ['claude']),
      input: geminiEvent,
      from: claude,
    },
    {
      kind: 'shell client, loopback',
      host: 'Copilot CLI',
      name: 'preToolUse',
      entry: shellClient('copilot', 'preToolUse'),
      input: copilotEvent,
      from: hookline,
    },
    {
      kind: 'Node client, --transport socket',
      host: 'Claude Code',
      name: 'PreToolUse',
      entry: relayCommand('claude', 'PreToolUse', []),
      input: event,
      from: hookline,
      target: false,
    },
  ];
  for (const { kind, host, name, entry, input, from, target = true } of entries)
    for (const [label, guard, own] of [
      ['no Hookline hook for the event', false, trivial],
      ['one Hookline guard', true, ALLOW],
    ] as const) {
      for (const f of [settings, claudeSettings]) fs.writeFileSync(f, '{}');
      const [file, hooks] = from(guard);
      fs.writeFileSync(file, JSON.stringify({ hooks }));
      const [a, b] = await pair(
        n(40),
        () => hostSpawn(own, input, dir, env),
        () => hostSpawn(entry, input, dir, env),
        3,
      );
      rows.push({
        case: `${host} ${name} through Hookline's command entry (${kind}; ${label}), warm server`,
        baseline: own === trivial ? 'the agent runs `node -e 0` itself' : 'the agent runs the guard itself',
        base: a,
        subject: b,
        unit: 'ms',
        ...(own === trivial && target ? { target: '≤ 1.1×', met: median(b) / median(a) <= 1.1 } : {}),
      });
    }
  await posted(event, env, dir, settings, port);
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)))
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(socket)) process.kill(Number(pid), 'SIGKILL');
    } catch {}
  // No server to be had: a file where the socket would be.
  fs.rmSync(socket, { force: true });
  fs.writeFileSync(socket, '');
  fs.writeFileSync(settings, '{}');
  const [a, b] = await pair(
    n(10),
    () => hostSpawn(trivial, event, dir, env),
    () => hostSpawn(entries.find((e) => e.kind.startsWith('Node client'))!.entry, event, dir, env),
    1,
  );
  rows.push({
    case: "Claude Code PreToolUse through Hookline's command entry (Node client), no server (the relay in a child)",
    baseline: 'the agent runs `node -e 0` itself',
    base: a,
    subject: b,
    unit: 'ms',
  });
  fs.rmSync(base, { recursive: true, force: true });
}

/**
 * Claude Code's http entries (the default install on Linux): the event POSTed, over a kept-alive
 * connection as Claude Code sends it, to the server the prompt's command entry started, beside the
 * same post to a loopback server of no work that answers `{}` at once (what any http hook costs
 * Claude Code). The difference is Hookline's time per event.
 */
async function posted(event: string, env: NodeJS.ProcessEnv, dir: string, settings: string, port: number): Promise<void> {
  const { relayCommand, relayUrl } = await import('../src/relay/install.js');
  const prompt = JSON.stringify({ ...JSON.parse(event), hook_event_name: 'UserPromptSubmit', prompt: 'hi' });
  await hostSpawn(relayCommand('claude', 'UserPromptSubmit', [], undefined, undefined, port), prompt, dir, env);
  // A PostToolUse: the guards are command entries (the shell client), the other events post.
  const postToolUse = JSON.stringify({ ...JSON.parse(event), hook_event_name: 'PostToolUse', tool_response: { stdout: 'ok' } });
  const idle = spawn(
    process.execPath,
    [
      '-e',
      "require('http').createServer((q,s)=>{q.resume();q.on('end',()=>s.end('{}'))}).listen(0,'127.0.0.1',function(){console.log(this.address().port)})",
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const idlePort = await new Promise<number>((resolve) => idle.stdout.once('data', (d: Buffer) => resolve(Number(d.toString()))));
  const post = async (url: string) =>
    (await fetch(url, { method: 'POST', body: postToolUse, headers: { 'content-type': 'application/json' } })).text();
  try {
    for (const [label, hooks] of [
      ['no Hookline hook for the event', {}],
      ['one Hookline hook', { AfterTool: [{ hooks: [cmd(ALLOW)] }] }],
    ] as const) {
      fs.writeFileSync(settings, JSON.stringify({ hooks }));
      const [a, b] = await pair(
        n('AfterTool' in hooks ? 40 : 400),
        () => post(`http://127.0.0.1:${idlePort}/`),
        () => post(relayUrl('claude', port, [])),
        20,
      );
      const extra = median(b) - median(a);
      rows.push({
        case: `Claude Code PostToolUse through Hookline's http entry (${label}), warm server`,
        baseline: 'the same post to a loopback server that answers `{}` at once',
        base: a,
        subject: b,
        unit: 'ms',
        ...('AfterTool' in hooks
          ? {}
          : { target: '≤ 1 ms of Hookline time', met: extra <= 1, note: `${extra.toFixed(2)} ms of Hookline time` }),
      });
    }
  } finally {
    idle.kill('SIGKILL');
  }
}

/**
 * What a user gets: each case in a fresh process (bench/as-used.mjs) importing the built package,
 * a plain `new HookEngine({ cwd, sessionId })` over the user's settings, every call timed on its
 * own and alternated with Gemini CLI's engine on the same hooks, with other work between events.
 */
function asUsed(): void {
  if (!ensureReference()) return;
  const shell = { tool_name: 'run_shell_command', tool_input: TOOL_INPUT };
  // The 10 MB response is made in the child (as-used.mjs), from its size.
  const big = {
    tool_name: 'read_file',
    tool_input: TOOL_INPUT,
    tool_response: { llmContent: { repeat: 10 * 1024 * 1024 }, returnDisplay: 'big' },
  };
  const eight = Array.from({ length: 8 }, (_, j) => cmd(`${ALLOW} # ${j}`));
  const warm = (command: string) => ({ BeforeTool: [{ hooks: [cmd(command, { prewarm: true })] }] });
  const node = (f: string, args = '') => `node ${JSON.stringify(path.join(HERE, 'hooks', f))}${args}`;
  const cases: Array<{
    name: string;
    hooks: unknown;
    count: number;
    /** Calls made before the timed ones (default 500 for µs cases, else 3). */
    warmup?: number;
    gap: number;
    event?: string;
    fields?: unknown;
    unit?: 'µs';
    target: string;
    goal: (ours: number, theirs: number) => boolean;
    /** Files written into the project folder first. */
    files?: Record<string, string>;
  }> = [
    { name: 'no hook configured', hooks: {}, count: 4000, gap: 0, unit: 'µs', target: '≤ 1 µs', goal: (o) => o <= 1 },
    // The same, once V8 has optimized both sides: what a long session's later events cost.
    {
      name: 'no hook configured, 10,000 events in',
      hooks: {},
      count: 4000,
      warmup: 10_000,
      gap: 0,
      unit: 'µs',
      target: '≤ 1 µs',
      goal: (o) => o <= 1,
    },
    { name: '1 hook', hooks: { BeforeTool: [{ hooks: [cmd(ALLOW)] }] }, count: 60, gap: 0, target: '≤ 0.9×', goal: (o, t) => o / t <= 0.9 },
    {
      name: '8 parallel hooks',
      hooks: { BeforeTool: [{ hooks: eight }] },
      count: 30,
      gap: 0,
      target: '≤ 0.8×',
      goal: (o, t) => o / t <= 0.8,
    },
    {
      name: '8 sequential hooks',
      hooks: { BeforeTool: [{ sequential: true, hooks: eight }] },
      count: 20,
      gap: 0,
      target: '≤ 0.8×',
      goal: (o, t) => o / t <= 0.8,
    },
    ...[30, 300].flatMap((gap) => [
      {
        name: `pre-warmed Node hook (ES module), ${gap} ms between events`,
        hooks: warm(node('node-hook.mjs')),
        count: 30,
        gap,
        target: '≤ 10 ms',
        goal: (o: number) => o <= 10,
      },
      {
        name: `pre-warmed Node hook (\`node hook.cjs a b\`), ${gap} ms between events`,
        hooks: warm(node('node-hook.cjs', ' a b')),
        count: 30,
        gap,
        target: '≤ 10 ms',
        goal: (o: number) => o <= 10,
      },
      {
        name: `pre-warmed Python hook, ${gap} ms between events`,
        hooks: warm(`python3 ${JSON.stringify(path.join(HERE, 'hooks', 'python-hook.py'))}`),
        count: 30,
        gap,
        target: '≤ 10 ms',
        goal: (o: number) => o <= 10,
      },
    ]),
    {
      name: 'pre-warmed Node hook with a preload (`node -r ./preload.cjs hook.cjs`), 30 ms between events',
      hooks: warm(
        `node -r ${JSON.stringify(path.join(HERE, 'hooks', 'preload.cjs'))} ${JSON.stringify(path.join(HERE, 'hooks', 'node-hook.cjs'))}`,
      ),
      count: 30,
      gap: 30,
      target: '≤ 10 ms',
      goal: (o: number) => o <= 10,
      files: { '.env': 'GUARD_MODE=strict\n' },
    },
    {
      name: 'pre-warmed Python module hook (`python3 -m bench_guard`), 30 ms between events',
      hooks: warm('python3 -m bench_guard'),
      count: 30,
      gap: 30,
      target: '≤ 10 ms',
      goal: (o: number) => o <= 10,
      files: { 'bench_guard.py': fs.readFileSync(path.join(HERE, 'hooks', 'python-hook.py'), 'utf8') },
    },
    {
      name: '10 MB tool_response',
      hooks: { AfterTool: [{ hooks: [cmd(ALLOW)] }] },
      event: 'AfterTool',
      fields: big,
      count: 10,
      gap: 0,
      target: '≤ 0.5×',
      goal: (o, t) => o / t <= 0.5,
    },
  ];
  for (const c of cases) {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-bench-used-'));
    const home = path.join(base, 'home');
    const dir = path.join(base, 'project');
    fs.mkdirSync(path.join(home, '.gemini'), { recursive: true });
    fs.mkdirSync(dir);
    for (const [name, text] of Object.entries(c.files ?? {})) fs.writeFileSync(path.join(dir, name), text);
    fs.writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify({ hooks: c.hooks }));
    const spec = {
      hooks: c.hooks,
      count: n(c.count),
      gap: c.gap,
      event: c.event ?? 'BeforeTool',
      fields: c.fields ?? shell,
      warmup: c.warmup ?? (c.unit ? 500 : 3),
    };
    const out = spawnSync(process.execPath, [path.join(HERE, 'as-used.mjs')], {
      cwd: dir,
      env: {
        ...process.env,
        HOME: home,
        GEMINI_CLI_HOME: home,
        HOOKLINE_BENCH_CASE: JSON.stringify(spec),
        GEMINI_CLI_SYSTEM_SETTINGS_PATH: path.join(base, 'none.json'),
      },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    fs.rmSync(base, { recursive: true, force: true });
    let r: { base: number[]; subject: number[] };
    try {
      r = JSON.parse(out.stdout);
      if (!r) throw out.error;
    } catch {
      rows.push({
        case: `as used: ${c.name}`,
        baseline: '—',
        base: [NaN],
        subject: [NaN],
        unit: 'ms',
        note: `failed: ${String(out.error ?? out.stderr).slice(0, 200)}`,
      });
      continue;
    }
    const scale = c.unit ? 1000 : 1;
    const a = r.base.map((x) => x * scale);
    const b = r.subject.map((x) => x * scale);
    rows.push({
      case: `as used: ${c.name}`,
      baseline: 'Gemini CLI 0.61 engine, same settings, alternated',
      base: a,
      subject: b,
      unit: c.unit ?? 'ms',
      target: c.target,
      met: c.goal(median(b), median(a)),
    });
  }
}

function table(): string {
  const head =
    '| case | baseline | baseline median | Hookline median | Hookline p95 | ratio | target | met |\n|---|---|---|---|---|---|---|---|';
  const lines = rows.map((r) => {
    const u = r.unit;
    const ratio = median(r.subject) / median(r.base);
    const v = (x: number) => (Number.isFinite(x) ? `${fmt(x)} ${u}` : '—');
    return `| ${r.case} | ${r.baseline} | ${v(median(r.base))} | ${v(median(r.subject))} | ${v(p95(r.subject))} | ${Number.isFinite(ratio) ? `${fmt(ratio)}×` : '—'} | ${r.target ?? '—'} | ${r.met === undefined ? (r.note ?? '—') : `${r.met ? 'yes' : 'no'}${r.note ? ` (${r.note})` : ''}`} |`;
  });
  return [head, ...lines].join('\n');
}

// The reference engine runs last: its module and its 10 MB payloads would otherwise weigh on the
// heap (and so the GC) of the micro-benchmarks that follow.
const sections: Array<[string, () => Promise<void> | void]> = [
  ['floor', floor],
  ['no match', noMatch],
  ['verify', verifiedRuns],
  ['persistent', persistentHooks],
  ['cold start', coldStart],
  ['memory', memory],
  ['serve', served],
  ['mcp', mcpProxy],
  ['relay', relayed],
  ['no hook vs gemini', noHookVsGemini],
  ['reference', againstReference],
  ['prewarm', prewarmed],
  ['as used', asUsed],
];
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const loadAtStart = os.loadavg()[0];
for (const [name, fn] of sections) {
  if (only.length && !only.includes(name)) continue;
  process.stderr.write(`bench: ${name}…\n`);
  await fn();
}
for (const e of engines) e.close();

const cpu = os.cpus();
const machine = `${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}, Node ${process.version}`;
const load = `load average ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end`;
const md = `# Benchmark results\n\n${new Date().toISOString()} · ${machine} · ${load}${QUICK ? ' · quick run' : ''}\n\nEach case runs beside its baseline in the same process, alternating, so load on the machine hits both. Ratios are Hookline ÷ baseline (below 1 is faster). Where both sides spend their time spawning the same processes, run-to-run noise on this machine is about ±5%: a ratio between 0.95 and 1.05 there means parity.\n\n${table()}\n`;
fs.writeFileSync(path.join(HERE, 'results.md'), md);
process.stdout.write(md);
process.exit(0);
