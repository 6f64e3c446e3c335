// A long-running caller (`hookline serve`, the relay's server) fires Claude Code and Copilot CLI
// hooks in shells started ahead of their events, as the Gemini engine does: each event after the
// first runs in a waiting shell, its answer the same, and dropping the warm state leaves no process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { systemNamed } from '../../src/dialects/registry.js';
import { poolsOf } from '../../src/run/prewarm.js';
import { Warm } from '../../src/serve/warm.js';
import { dialectProject } from '../dialects/util.js';

/** Process ids still alive among `pids`. */
function alive(pids: number[]): number[] {
  return pids.filter((pid) => {
    try {
      process.kill(pid, 0);
      return !/^State:\s+Z/m.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    } catch {
      return false;
    }
  });
}

const cases = [
  {
    system: 'claude',
    event: 'PreToolUse',
    home: {
      '.claude/settings.json': {
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [{ type: 'command', command: `cat >/dev/null; echo "{\\"systemMessage\\": \\"pid $$\\"}"` }],
            },
          ],
        },
      },
    },
    fields: { tool_name: 'Bash', tool_input: { command: 'ls' } },
  },
  {
    system: 'copilot',
    event: 'preToolUse',
    home: {
      '.copilot/hooks/mine.json': {
        version: 1,
        hooks: { preToolUse: [{ type: 'command', bash: `cat >/dev/null; echo "pid $$" >&2; echo '{}'` }] },
      },
    },
    fields: { toolName: 'bash', toolArgs: { command: 'ls' } },
  },
];

for (const c of cases)
  test(`a server's ${c.system} hooks run in shells started ahead of their events; dropping the warm state leaves none`, async () => {
    const p = dialectProject({ prefix: `hookline-warm-${c.system}-`, home: c.home });
    const env = { ...p.env, HOME: p.home, HOOKLINE_TRACE: '0' };
    delete env.COPILOT_HOME;
    delete env.CLAUDE_CONFIG_DIR;
    const warm = new Warm();
    const system = await systemNamed(c.system);
    const fire = () => system.fire(c.event, { ...c.fields }, { cwd: p.dir, env, hasModel: false, warm, sessionId: 'warm-test' });
    const first = await fire();
    assert.equal(first.runs.length, 1, JSON.stringify(first));
    const kept = warm.get(
      `${c.system}\0processes\0${p.dir}`,
      () => new Map(),
      () => {},
    );
    const pools = poolsOf(kept);
    assert.ok(pools, 'the server keeps pools for the folder');
    await fire();
    await pools.ready();
    const waiting = pools.info().flatMap((i) => i.pids);
    assert.ok(waiting.length >= 1, 'shells wait for the next event');
    const r = await fire();
    assert.equal(r.runs.length, 1);
    assert.equal(r.runs[0]!.exitCode, 0, JSON.stringify(r.runs[0]));
    const said = `${JSON.stringify(r.output)}${r.runs[0]!.stderr ?? ''}`;
    const pid = Number(/pid (\d+)/.exec(said)?.[1]);
    assert.ok(waiting.includes(pid), `the hook ran in a waiting shell (${pid}, waiting: ${waiting.join(' ')})`);
    assert.ok(pools.counts.shell >= 1, JSON.stringify(pools.counts));
    await pools.ready();
    const left = pools.info().flatMap((i) => i.pids);
    assert.ok(left.length >= 1);
    warm.clear();
    const deadline = Date.now() + 3000;
    while (alive(left).length && Date.now() < deadline) await new Promise((res) => setTimeout(res, 20));
    assert.deepEqual(alive(left), [], 'no waiting shell outlives the warm state');
  });

test('a one-shot fire (no warm state) keeps no process', async () => {
  const c = cases[0]!;
  const p = dialectProject({ prefix: 'hookline-warm-none-', home: c.home });
  const env = { ...p.env, HOME: p.home, HOOKLINE_TRACE: '0' };
  delete env.CLAUDE_CONFIG_DIR;
  const r = await (await systemNamed('claude')).fire(c.event, { ...c.fields }, { cwd: p.dir, env, hasModel: false });
  assert.equal(r.runs[0]?.exitCode, 0);
  const pid = Number(/pid (\d+)/.exec(JSON.stringify(r.output))?.[1]);
  assert.ok(pid > 0);
  assert.deepEqual(alive([pid]), []);
});

test('the warm state dropped while an event runs (a reload): the shells that event starts afterwards close at its end', async () => {
  const p = dialectProject({
    prefix: 'hookline-warm-reload-',
    home: {
      '.copilot/hooks/mine.json': {
        version: 1,
        hooks: {
          preToolUse: [
            { type: 'command', bash: `cat >/dev/null; sleep 0.4; echo '{}'` },
            { type: 'command', bash: `cat >/dev/null; echo '{}'` },
          ],
        },
      },
    },
  });
  const env = { ...p.env, HOME: p.home, HOOKLINE_TRACE: '0' };
  delete env.COPILOT_HOME;
  const warm = new Warm();
  const system = await systemNamed('copilot');
  const fire = () =>
    system.fire('preToolUse', { toolName: 'bash', toolArgs: { command: 'ls' } }, { cwd: p.dir, env, hasModel: false, warm });
  await fire();
  await fire();
  const kept = warm.get(
    `copilot\0processes\0${p.dir}`,
    () => new Map(),
    () => {},
  );
  await poolsOf(kept)!.ready();
  const running = fire();
  await new Promise((res) => setTimeout(res, 150));
  warm.clear();
  const r = await running;
  assert.equal(r.runs.length, 2);
  assert.equal(poolsOf(kept), undefined, 'nothing of the dropped state is kept');
  // Whatever the event started after the drop is gone with it.
  const mine = () =>
    fs
      .readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          // Not the test loader's own compiler service (started when its cache is cold).
          const [comm, rest] = fs.readFileSync(`/proc/${d}/stat`, 'utf8').split(') ');
          return rest!.split(' ')[1] === String(process.pid) && !comm!.endsWith('(esbuild');
        } catch {
          return false;
        }
      })
      .map(Number);
  const deadline = Date.now() + 3000;
  while (alive(mine()).length && Date.now() < deadline) await new Promise((res) => setTimeout(res, 20));
  const left = alive(mine()).map((pid) => {
    try {
      return `${pid}: ${fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')}`;
    } catch {
      return `${pid}: gone`;
    }
  });
  assert.deepEqual(left, [], 'no waiting shell is left');
});

/** A BeforeTool of Gemini CLI's shell tool, fired through the warm store with the environment given. */
async function geminiShellEvent(cwd: string, warm: Warm, command: string) {
  const system = await systemNamed('gemini');
  return (env: NodeJS.ProcessEnv) =>
    system.fire('BeforeTool', { tool_name: 'run_shell_command', tool_input: { command } }, { cwd, env, hasModel: false, warm });
}

test("a server's Gemini CLI hooks run with each event's own environment, and its settings are found from it", async () => {
  const hooks = (said: string) => ({
    hooks: {
      BeforeTool: [
        { hooks: [{ type: 'command', command: `cat >/dev/null; echo "{\\"systemMessage\\": \\"${said} $GREETING$TRACEPARENT\\"}"` }] },
      ],
    },
  });
  const p = dialectProject({ prefix: 'hookline-warm-env-', home: { '.gemini/settings.json': hooks('first home') } });
  const otherHome = `${p.base}/other-home`;
  p.write(`${otherHome}/.gemini/settings.json`, hooks('second home'));
  const warm = new Warm();
  const fire = await geminiShellEvent(p.dir, warm, 'ls');
  const first = { ...p.env, GREETING: 'hello', HOOKLINE_TRACE: '0' };
  const second = { ...p.env, HOME: otherHome, GEMINI_CLI_HOME: otherHome, GREETING: 'bonjour', HOOKLINE_TRACE: '0' };
  try {
    assert.equal((await fire(first)).output?.systemMessage, 'first home hello');
    assert.equal(
      (await fire(second)).output?.systemMessage,
      'second home bonjour',
      "the second client's event is not run with the first's",
    );
    assert.equal((await fire({ ...first })).output?.systemMessage, 'first home hello');
    assert.equal(warm.size, 2, 'one engine for each environment, kept for the next event with it');
    // What a host sets afresh for each hook it starts reaches that event's hooks, in the same engine.
    assert.equal((await fire({ ...first, TRACEPARENT: ' 00-trace-a' })).output?.systemMessage, 'first home hello 00-trace-a');
    assert.equal((await fire({ ...first, TRACEPARENT: ' 00-trace-b' })).output?.systemMessage, 'first home hello 00-trace-b');
    assert.equal(warm.size, 2);
    // An engine first made for an event that had one: the next event without it does not get it.
    assert.equal((await fire({ ...first, GREETING: 'hi', TRACEPARENT: ' 00-trace-c' })).output?.systemMessage, 'first home hi 00-trace-c');
    assert.equal((await fire({ ...first, GREETING: 'hi' })).output?.systemMessage, 'first home hi');
    assert.equal(warm.size, 3);
  } finally {
    warm.clear();
  }
});

test('the warm state keeps the most recently used entries and closes the one it drops', () => {
  const closed: string[] = [];
  const warm = new Warm(2);
  const get = (key: string) =>
    warm.get(
      key,
      () => ({ key }),
      (v) => closed.push(v.key),
    );
  const a = get('a');
  get('b');
  assert.equal(get('a'), a, 'kept: the same value again');
  get('c');
  assert.deepEqual(closed, ['b'], 'the least recently used goes, and is closed');
  assert.equal(warm.size, 2);
  assert.equal(get('a'), a);
  assert.equal(warm.clear(), 2);
  assert.deepEqual(closed.sort(), ['a', 'b', 'c']);
  // An entry an event holds is neither dropped to make room nor closed by a clear until released.
  closed.length = 0;
  const held = warm.hold(
    'd',
    () => ({ key: 'd' }),
    (v) => closed.push(v.key),
  );
  get('e');
  get('f');
  assert.deepEqual(closed, ['e'], 'the idle one went, not the held one');
  warm.clear();
  assert.deepEqual(closed.sort(), ['e', 'f']);
  held.release();
  held.release();
  assert.deepEqual(closed.sort(), ['d', 'e', 'f'], 'closed once, when released');
  // All held: the store goes past its bound, and comes back to it as they are released.
  closed.length = 0;
  const all = ['g', 'h', 'i'].map((key) =>
    warm.hold(
      key,
      () => ({ key }),
      (v) => closed.push(v.key),
    ),
  );
  assert.equal(warm.size, 3);
  for (const h of all) h.release();
  assert.equal(warm.size, 2);
  assert.deepEqual(closed, ['g']);
});

test("an engine an event is using is not closed to make room for another client's, nor by a reload: its persistent guard's deny stands", async () => {
  const p = dialectProject({ prefix: 'hookline-warm-busy-' });
  const guard = `${p.base}/guard.mjs`;
  fs.writeFileSync(
    guard,
    [
      "import readline from 'node:readline';",
      "console.log(JSON.stringify({ hookline: 'ready', concurrent: true }));",
      "readline.createInterface({ input: process.stdin }).on('line', (l) => {",
      '  const { id } = JSON.parse(l);',
      "  setTimeout(() => console.log(JSON.stringify({ id, output: { decision: 'deny', reason: 'guard says no' } })), 400);",
      '});',
      '',
    ].join('\n'),
  );
  p.write(`${p.home}/.gemini/settings.json`, {
    hooks: { BeforeTool: [{ hooks: [{ type: 'command', name: 'guard', command: `node ${guard}`, persistent: true, timeout: 5000 }] }] },
  });
  const warm = new Warm(1);
  const fire = await geminiShellEvent(p.dir, warm, 'rm -rf /');
  const base = { ...p.env, HOOKLINE_TRACE: '0' };
  try {
    assert.equal((await fire(base)).output?.decision, 'deny');
    const running = fire({ ...base });
    await new Promise((res) => setTimeout(res, 100));
    // Another client's event needs room (the store keeps one), and a reload drops everything.
    const other = fire({ ...base, OTHER_SESSION: '1' });
    await new Promise((res) => setTimeout(res, 50));
    warm.clear();
    const r = await running;
    assert.equal(r.output?.decision, 'deny', JSON.stringify(r.runs[0]));
    assert.equal(r.runs[0]?.error ?? null, null);
    assert.equal((await other).output?.decision, 'deny');
  } finally {
    warm.clear();
  }
});
