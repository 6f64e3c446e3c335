// Misbehaving command hooks: each is run through runCommand directly and through HookEngine.fire
// next to a well-behaved hook. Every run must end within its timeout + 1 s, say what went wrong,
// and leave no process behind.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { cmd, makeProject, runCli, tmpFile, waitUntil } from '../helpers.js';
import { runHook as runCommand } from './util.js';
import type { RunResult } from '../../src/run/result.js';
import type { HookRun } from '../../src/engine/index.js';
import { engineFor, fixture, q, readPids, survivors } from './util.js';

const ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' };
const BIG_RESPONSE = 'x'.repeat(10 * 1024 * 1024);

interface Case {
  title: string;
  script: string;
  timeout: number;
  /** Processes the fixture is expected to have recorded. */
  pids: number;
  event: 'BeforeTool' | 'AfterTool';
  fields?: Record<string, unknown>;
  /** Checks on the direct runCommand result. */
  direct: (r: RunResult) => void;
  /** Checks on the bad hook's run inside fire (error text is checked separately). */
  viaEngine: (r: HookRun) => void;
  /** Substring the engine's error must contain; undefined when the run is not an error. */
  error?: string;
}

const TOOL = { tool_name: 'run_shell_command', tool_input: { command: 'ls' } };

const cases: Case[] = [
  {
    title: '(a) hangs and ignores SIGTERM',
    script: 'run-trap-term.sh',
    timeout: 500,
    pids: 2,
    event: 'BeforeTool',
    error: 'Hook timed out after 500ms',
    direct: (r) => {
      assert.equal(r.timedOut, true);
      assert.equal(r.success, false);
      assert.equal(r.error, 'Hook timed out after 500ms');
      assert.equal(r.output, undefined, 'JSON printed before the hang must not be parsed');
      assert.match(r.stdout, /printed before hanging/);
    },
    viaEngine: (r) => {
      assert.equal(r.timedOut, true);
      assert.equal(r.output, undefined);
    },
  },
  {
    title: '(b) a grandchild keeps stdout open',
    script: 'run-grandchild.sh',
    timeout: 1500,
    pids: 3,
    event: 'BeforeTool',
    direct: (r) => {
      assert.equal(r.error, undefined);
      assert.equal(r.success, true);
      assert.equal(r.exitCode, 0);
      assert.deepEqual(r.output, { decision: 'allow', systemMessage: 'answered early' });
      // The grandchild sleeps far past the timeout: success means the run did not wait for it.
      assert.ok(!r.timedOut);
    },
    viaEngine: (r) => {
      assert.equal(r.success, true);
      assert.equal(r.output?.systemMessage, 'answered early');
    },
  },
  {
    title: '(c) writes 100 MB to stdout',
    script: 'run-flood.sh',
    timeout: 1500,
    pids: 2,
    event: 'BeforeTool',
    error: 'stdout larger than 1048576 bytes',
    direct: (r) => {
      assert.equal(r.success, false);
      assert.equal(r.error, 'stdout larger than 1048576 bytes');
      assert.equal(r.output, undefined);
      assert.ok(r.stdout.length <= 1048576, `kept ${r.stdout.length} chars`);
    },
    viaEngine: (r) => {
      assert.equal(r.success, false);
      assert.equal(r.output, undefined);
    },
  },
  {
    title: '(d) exits without reading a 10 MB stdin',
    script: 'run-no-stdin.sh',
    timeout: 1500,
    pids: 1,
    event: 'AfterTool',
    fields: { ...TOOL, tool_response: { llmContent: BIG_RESPONSE, returnDisplay: 'big' } },
    direct: (r) => {
      assert.equal(r.error, undefined);
      assert.equal(r.success, true);
      assert.deepEqual(r.output, { decision: 'allow', systemMessage: 'did not read stdin' });
    },
    viaEngine: (r) => {
      assert.equal(r.success, true);
      assert.equal(r.error, undefined);
      assert.equal(r.output?.systemMessage, 'did not read stdin');
    },
  },
  {
    title: '(e) killed by a signal',
    script: 'run-self-kill.sh',
    timeout: 1500,
    pids: 2,
    event: 'BeforeTool',
    error: 'Hook killed by signal SIGKILL',
    direct: (r) => {
      assert.equal(r.success, false);
      assert.equal(r.exitCode, null);
      assert.equal(r.signal, 'SIGKILL');
      assert.equal(r.error, 'Hook killed by signal SIGKILL');
    },
    viaEngine: (r) => {
      assert.equal(r.success, false);
      assert.equal(r.exitCode, null);
    },
  },
  {
    title: '(f) prints invalid UTF-8',
    script: 'run-bad-utf8.sh',
    timeout: 1500,
    pids: 1,
    event: 'BeforeTool',
    // As the reference: the bad bytes are replaced and the run is an ordinary success.
    direct: (r) => {
      assert.equal(r.error, undefined);
      assert.equal(r.success, true);
      assert.equal(r.exitCode, 0);
      assert.deepEqual(r.output, { decision: 'allow', systemMessage: 'caf\uFFFD \uFFFD\uFFFD done' });
    },
    viaEngine: (r) => {
      assert.equal(r.success, true);
      assert.equal(r.output?.systemMessage, 'caf\uFFFD \uFFFD\uFFFD done');
    },
  },
];

function inputFor(c: Case, cwd: string): Record<string, unknown> {
  return {
    session_id: 's1',
    transcript_path: '',
    cwd,
    hook_event_name: c.event,
    timestamp: new Date().toISOString(),
    ...TOOL,
    ...c.fields,
  };
}

async function assertNoneLeft(pidFile: string, expected: number): Promise<void> {
  const pids = readPids(pidFile);
  assert.equal(pids.length, expected, `fixture recorded ${pids.length} pids, expected ${expected}`);
  assert.deepEqual(await survivors(pids), [], 'processes left behind');
}

describe('misbehaving command hooks', () => {
  for (const c of cases) {
    test(`${c.title}: runCommand`, async () => {
      const pidFile = tmpFile('pids');
      const cwd = process.cwd();
      // A hang shows as this test's own time-out; what is asserted is the result and the reaping.
      const r = await runCommand({
        command: fixture(c.script, q(pidFile)),
        cwd,
        env: ENV,
        stdin: JSON.stringify(inputFor(c, cwd)),
        timeoutMs: c.timeout,
      });
      c.direct(r);
      await assertNoneLeft(pidFile, c.pids);
    });

    test(`${c.title}: HookEngine.fire beside a well-behaved hook`, async () => {
      const pidFile = tmpFile('pids');
      const p = makeProject({
        project: {
          hooks: {
            [c.event]: [
              {
                hooks: [
                  cmd(fixture(c.script, q(pidFile)), { name: 'bad', timeout: c.timeout }),
                  cmd(`echo '{"systemMessage":"good ran"}'`, { name: 'good', timeout: 1500 }),
                ],
              },
            ],
          },
        },
      });
      const engine = engineFor(p);
      const res = await engine.fire(c.event, { ...TOOL, ...c.fields });
      assert.equal(res.runs.length, 2);
      const [bad, good] = res.runs;
      assert.equal(bad.name, 'bad');
      assert.equal(good.name, 'good');
      assert.equal(good.success, true);
      assert.equal(good.output?.systemMessage, 'good ran');
      assert.match(res.output?.systemMessage ?? '', /good ran/);
      if (c.error) {
        assert.ok(bad.error, 'the bad hook must report an error');
        assert.ok(bad.error.startsWith(`${c.event} hook "bad"`), `error does not name event and hook: ${bad.error}`);
        assert.ok(bad.error.includes(c.error), `error: ${bad.error}`);
        assert.equal(res.success, false);
      } else {
        assert.equal(bad.error, undefined);
      }
      c.viaEngine(bad);
      await assertNoneLeft(pidFile, c.pids);
    });
  }
});

describe('timeout', () => {
  test('SIGTERM reaches the whole group, then SIGKILL ends it', async () => {
    const pidFile = tmpFile('pids');
    const log = tmpFile('log');
    const r = await runCommand({
      command: fixture('run-term-logger.sh', `${q(pidFile)} ${q(log)}`),
      cwd: process.cwd(),
      env: ENV,
      stdin: '{}',
      timeoutMs: 600,
    });
    assert.equal(r.error, 'Hook timed out after 600ms');
    assert.equal(r.success, false);
    assert.equal(r.timedOut, true);
    const lines = (await import('node:fs')).readFileSync(log, 'utf8').split('\n');
    assert.ok(lines.includes('parent TERM'), `log: ${lines}`);
    assert.ok(lines.includes('child TERM'), `the background child did not get SIGTERM: ${lines}`);
    // Both trap SIGTERM and keep running, so only the SIGKILL after the grace can have ended them.
    await assertNoneLeft(pidFile, 2);
  });

  test('JSON printed before the timeout is not parsed; the run reports the timeout', async () => {
    const r = await runCommand({
      command: `echo '{"decision":"deny","reason":"early"}'; exec sleep 5`,
      cwd: process.cwd(),
      env: ENV,
      stdin: '{}',
      timeoutMs: 300,
    });
    assert.equal(r.error, 'Hook timed out after 300ms');
    assert.equal(r.output, undefined);
    assert.equal(r.success, false);
    assert.ok(r.durationMs < 1300);
  });

  test('a hook that finishes in time is not reported as timed out', async () => {
    const r = await runCommand({
      command: `sleep 0.1; echo '{"decision":"allow"}'`,
      cwd: process.cwd(),
      env: ENV,
      stdin: '{}',
      timeoutMs: 1500,
    });
    assert.equal(r.timedOut, undefined);
    assert.equal(r.success, true);
    assert.deepEqual(r.output, { decision: 'allow' });
  });

  test('an aborted event stops its command hook at once', async () => {
    const pidFile = tmpFile('pids');
    const ac = new AbortController();
    // A timeout far past the test's run: the run can only end early through the abort.
    const running = runCommand({
      command: fixture('run-trap-term.sh', q(pidFile)),
      cwd: process.cwd(),
      env: ENV,
      stdin: '{}',
      timeoutMs: 120_000,
      signal: ac.signal,
    });
    // Abort once the hook has started its child.
    assert.ok(await waitUntil(() => readPids(pidFile).length === 2), 'the hook never started its child');
    ac.abort();
    const r = await running;
    assert.equal(r.error, 'Hook cancelled');
    assert.equal(r.timedOut, undefined);
    assert.equal(r.success, false);
    assert.equal(r.output, undefined);
    await assertNoneLeft(pidFile, 2);
  });

  test('a hook that cannot start is an error, not a crash', async () => {
    const r = await runCommand({ command: 'true', cwd: '/nonexistent/hookline-dir', env: ENV, stdin: '{}', timeoutMs: 500 });
    assert.equal(r.success, false);
    assert.equal(r.error, 'cannot start hook: working folder /nonexistent/hookline-dir does not exist');
  });
});

describe('the hookline CLI with misbehaving hooks', () => {
  // Were fire to wait for the pipe the grandchild holds, it would return only once the grandchild
  // finished (and touched its marker); the stubborn hook never ends at all (hence the hang guard).
  test('fire returns promptly and leaves nothing behind', { timeout: 120_000 }, async () => {
    // A file each: the grandchild hook answers once its file has its three pids, which another
    // hook's lines in a shared file would fake (it would answer before its subshell wrote them).
    const pidFile = tmpFile('pids');
    const stubbornPids = tmpFile('pids');
    const hooks = [
      cmd(fixture('run-grandchild.sh', q(pidFile)), { name: 'grandchild', timeout: 1500 }),
      cmd(fixture('run-trap-term.sh', q(stubbornPids)), { name: 'stubborn', timeout: 500 }),
    ];
    const p = makeProject({ project: { hooks: { BeforeTool: [{ hooks }] } } });
    const r = await runCli(['fire', 'BeforeTool', '--input', '-'], { cwd: p.dir, env: p.env, input: JSON.stringify(TOOL) });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.existsSync(`${pidFile}.finished`), false, 'fire waited for the grandchild to finish');
    const out = r.json();
    assert.equal(out.runs[0].output.systemMessage, 'answered early');
    assert.match(out.runs[1].error, /^BeforeTool hook "stubborn".*Hook timed out after 500ms/);
    assert.match(r.stderr, /stubborn.*timed out/);
    await assertNoneLeft(pidFile, 3);
    await assertNoneLeft(stubbornPids, 2);
  });
});
