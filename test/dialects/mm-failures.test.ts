// mm (seed 002): "Échecs" — each failure with its exact message, the onError table cell by
// cell, the failure line, and cancellation — with real hook processes and short timeouts.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fireMm } from '../../src/dialects/mm/chain.js';
import type { MmEvent } from '../../src/dialects/mm/events.js';
import type { MmEventData } from '../../src/dialects/mm/input.js';
import { fx, mmSetup, mmYaml, q, read, tmpDir } from './util.js';
import { survivors } from '../run/util.js';
import { readWhenWritten } from '../helpers.js';

const DATA: Record<MmEvent, MmEventData> = {
  preGeneration: { prompt: 'q' },
  preToolCall: { tool: { name: 'bash', input: { command: 'ls' } } },
  postToolCall: { tool: { name: 'bash', input: {} }, output: 'o' },
  postGeneration: { prompt: 'q', answer: 'a' },
  preAsk: { ask: { agent: 'expert', config: '/c', prompt: 'q' } },
  postAsk: { ask: { agent: 'expert', config: '/c', prompt: 'q' }, answer: 'a' },
};

async function one(event: MmEvent, hook: Record<string, string>, opts: Parameters<typeof fireMm>[3] = {}) {
  const { dir, config } = mmSetup(mmYaml({ [event]: [hook] }));
  const r = await fireMm(config, event, DATA[event], { cwd: dir, ...opts });
  return r;
}

describe('mm failures: the messages', () => {
  test('non-zero exit: exit status <n>: <stderr>, the first 300 bytes of stderr', async () => {
    const r = await one('preToolCall', { command: `${fx('mm-fail.sh')} 3 'disk full'` });
    assert.equal(r.runs[0].error, 'exit status 3: disk full');
    assert.equal(r.runs[0].exitCode, 3);
    const long = 'é'.repeat(400); // 800 bytes; cut on a character boundary
    const l = await one('preToolCall', { command: `${fx('mm-fail.sh')} 1 ${long}` });
    assert.equal(l.runs[0].error, `exit status 1: ${'é'.repeat(150)}`);
    const quiet = await one('preToolCall', { command: 'exit 7' });
    assert.equal(quiet.runs[0].error, 'exit status 7');
  });

  test('longer than timeout: timed out after <timeout>, the hook is killed', async () => {
    const pids = path.join(tmpDir(), 'pids');
    const started = Date.now();
    const r = await one('preGeneration', { command: `${fx('mm-slow.sh')} 5 ${q(pids)}`, timeout: '300ms' });
    assert.equal(r.runs[0].error, 'timed out after 300ms');
    assert.equal(r.runs[0].timedOut, true);
    assert.ok(Date.now() - started < 2000);
    assert.deepEqual(await survivors([Number(read(pids).trim())]), [], 'the hook process is gone');
  });

  test('the timeout is printed normalised, as Go prints durations', async () => {
    const { dir, config } = mmSetup('hooks:\n  postToolCall:\n    - command: sleep 3\n      timeout: 0.25s\n');
    const r = await fireMm(config, 'postToolCall', DATA.postToolCall, { cwd: dir });
    assert.equal(r.runs[0].error, 'timed out after 250ms');
  });

  test('stdout over 1 MiB: stdout larger than 1048576 bytes', async () => {
    const r = await one('postToolCall', { command: fx('mm-flood.sh') });
    assert.equal(r.runs[0].error, 'stdout larger than 1048576 bytes');
  });

  test('stdout that is not JSON: invalid JSON on stdout: …', async () => {
    for (const out of ['hello', '{"action": "continue"', '[1, 2]', '"text"', '{"prompt": 5}', '{"a":1} {"b":2}']) {
      const r = await one('preGeneration', { command: `printf '%s' ${q(out)}` });
      assert.match(r.runs[0].error ?? '', /^invalid JSON on stdout: ./, out);
    }
  });

  test('action error: the response error, or "the hook reported an error"', async () => {
    assert.equal(
      (await one('postGeneration', { command: `echo '{"action":"error","error":"quota exceeded"}'` })).runs[0].error,
      'quota exceeded',
    );
    assert.equal((await one('postGeneration', { command: `echo '{"action":"error"}'` })).runs[0].error, 'the hook reported an error');
  });

  test('unknown or misplaced action: action "<action>" is not valid for <event>', async () => {
    assert.equal((await one('postAsk', { command: `echo '{"action":"block"}'` })).runs[0].error, 'action "block" is not valid for postAsk');
  });

  test('killed by a signal: signal: <name>, as Go words it', async () => {
    assert.equal((await one('postToolCall', { command: 'kill -9 $$' })).runs[0].error, 'signal: killed');
    assert.equal((await one('postToolCall', { command: 'kill -TERM $$' })).runs[0].error, 'signal: terminated');
  });

  test('a command that cannot start still ends in a failure, never a crash', async () => {
    const r = await fireMm(mmSetup(mmYaml({ preGeneration: [{ command: 'true' }] })).config, 'preGeneration', DATA.preGeneration, {
      cwd: path.join(tmpDir(), 'gone'),
    });
    assert.equal(r.runs[0].success, false);
    assert.match(r.runs[0].error!, /does not exist/);
  });

  test('the failure line: 🪝 <event> hook `<command>`: <failure>', async () => {
    const r = await one('preAsk', { command: `${fx('mm-fail.sh')} 2 boom` });
    assert.deepEqual(r.failures, [`🪝 preAsk hook \`${fx('mm-fail.sh')} 2 boom\`: exit status 2: boom`]);
    assert.equal(r.runs[0].failureLine, r.failures[0]);
  });
});

describe('mm onError: each cell of the table', () => {
  /** A failing hook with `onError`, followed by a hook that logs that it ran. */
  async function failThenLog(event: MmEvent, onError: string) {
    const log = path.join(tmpDir(), 'log');
    const { dir, config } = mmSetup(
      mmYaml({ [event]: [{ command: `${fx('mm-fail.sh')} 2 boom`, onError }, { command: `${fx('mm-log.sh')} ${q(log)} next` }] }),
    );
    const r = await fireMm(config, event, DATA[event], { cwd: dir });
    return { r, nextRan: fs.existsSync(log) };
  }
  const line = (e: MmEvent) => `🪝 ${e} hook \`${fx('mm-fail.sh')} 2 boom\`: exit status 2: boom`;

  test('fail × preGeneration: failure line, the turn stops with ⛔ … hook failed: …', async () => {
    const { r, nextRan } = await failThenLog('preGeneration', 'fail');
    assert.deepEqual(r.failures, [line('preGeneration')]);
    assert.deepEqual(r.output, {
      action: 'stop',
      reason: 'hook failed: exit status 2: boom',
      response: '⛔ This request was blocked by a hook: hook failed: exit status 2: boom',
      error: 'exit status 2: boom',
    });
    assert.equal(nextRan, false);
  });

  test('fail × preToolCall, preAsk: failure line, the call or relay is denied with reason hook failed: …', async () => {
    for (const e of ['preToolCall', 'preAsk'] as const) {
      const { r, nextRan } = await failThenLog(e, 'fail');
      assert.deepEqual(r.failures, [line(e)]);
      assert.deepEqual(r.output, { action: 'deny', reason: 'hook failed: exit status 2: boom', error: 'exit status 2: boom' });
      assert.equal(nextRan, false, e);
    }
  });

  test('fail × postToolCall, postGeneration, postAsk: failure line, the turn goes on', async () => {
    for (const e of ['postToolCall', 'postGeneration', 'postAsk'] as const) {
      const { r, nextRan } = await failThenLog(e, 'fail');
      assert.deepEqual(r.failures, [line(e)]);
      assert.equal(r.output.action, 'continue');
      assert.equal(nextRan, true, e);
    }
  });

  test('warn (and the default) × every event: failure line, next hook', async () => {
    for (const e of ['preGeneration', 'preToolCall', 'preAsk', 'postToolCall', 'postGeneration', 'postAsk'] as const) {
      for (const onError of ['warn', '']) {
        const { r, nextRan } = await failThenLog(e, onError);
        assert.deepEqual(r.failures, [line(e)], `${e} ${onError}`);
        assert.equal(r.output.action, 'continue');
        assert.equal(nextRan, true);
        assert.equal(r.runs[0].decision, 'failed');
      }
    }
  });

  test('ignore × every event: next hook, nothing said (the display still says failed)', async () => {
    for (const e of ['preGeneration', 'preToolCall', 'preAsk', 'postToolCall', 'postGeneration', 'postAsk'] as const) {
      const { r, nextRan } = await failThenLog(e, 'ignore');
      assert.deepEqual(r.failures, [], e);
      assert.equal(r.output.action, 'continue');
      assert.equal(nextRan, true);
      assert.equal(r.runs[0].decision, 'failed');
    }
  });

  test('a failed hook changes nothing: the fields of its response are not applied', async () => {
    const { dir, config } = mmSetup(mmYaml({ preGeneration: [{ command: `echo '{"prompt":"evil","context":"c"}'; exit 1` }] }));
    const r = await fireMm(config, 'preGeneration', DATA.preGeneration, { cwd: dir });
    assert.deepEqual(r.output, { action: 'continue' });
  });
});

describe('mm cancellation', () => {
  test('preGeneration, preToolCall, postToolCall and preAsk are cancelled with the turn: cancelled', async () => {
    for (const e of ['preGeneration', 'preToolCall', 'postToolCall', 'preAsk'] as const) {
      const log = path.join(tmpDir(), 'log');
      const pids = path.join(tmpDir(), 'pids');
      const slow = `${fx('mm-slow.sh')} 30 ${q(pids)}`;
      const { dir, config } = mmSetup(mmYaml({ [e]: [{ command: slow }, { command: `${fx('mm-log.sh')} ${q(log)} next` }] }));
      const ac = new AbortController();
      const pending = fireMm(config, e, DATA[e], { cwd: dir, signal: ac.signal });
      // Cancel once the hook is running; had it not been stopped it would succeed 30 s later.
      const pid = Number(await readWhenWritten(pids));
      ac.abort();
      const r = await pending;
      assert.equal(r.runs[0].error, 'cancelled', e);
      assert.equal(r.runs[0].decision, 'failed');
      assert.equal(r.cancelled, true);
      assert.deepEqual(r.failures, [`🪝 ${e} hook \`${slow}\`: cancelled`]);
      assert.equal(fs.existsSync(log), false, 'nothing more runs in a cancelled turn');
      assert.deepEqual(await survivors([pid]), [], `${e}: the hook process is gone`);
    }
  });

  test('onError fail on a cancelled preToolCall denies with hook failed: cancelled', async () => {
    const ac = new AbortController();
    const pids = path.join(tmpDir(), 'pids');
    const pending = one('preToolCall', { command: `${fx('mm-slow.sh')} 30 ${q(pids)}`, onError: 'fail' }, { signal: ac.signal });
    await readWhenWritten(pids);
    ac.abort();
    const r = await pending;
    assert.deepEqual(r.output, { action: 'deny', reason: 'hook failed: cancelled', error: 'cancelled' });
  });

  test('postGeneration and postAsk still run after a cancel, bounded by their timeout', async () => {
    for (const e of ['postGeneration', 'postAsk'] as const) {
      const ac = new AbortController();
      ac.abort();
      const ran = await one(e, { command: `sleep 0.2; echo '{}'` }, { signal: ac.signal });
      assert.equal(ran.runs[0].success, true, e);
      assert.equal(ran.cancelled, false);
      const bounded = await one(e, { command: 'sleep 5', timeout: '200ms' }, { signal: ac.signal });
      assert.equal(bounded.runs[0].error, 'timed out after 200ms');
    }
  });
});
