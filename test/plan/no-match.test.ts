// A fire that matches nothing returns at once, with the same result as before: the full input,
// no runs, success; no hook events; and the plan memo stays right across many values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HookEngine } from '../../src/engine/index.js';
import { Planner } from '../../src/plan/plan.js';
import { isoNow } from '../../src/engine/clock.js';
import type { HookEntry } from '../../src/config/entry.js';
import { cmd, makeProject } from '../helpers.js';

test('a field named __proto__ (as JSON.parse makes one) is a field of the input, never its prototype', async () => {
  const p = makeProject({ project: { hooks: { BeforeTool: [{ matcher: '^write_file$', hooks: [cmd('echo {}')] }] } } });
  const e = new HookEngine({ cwd: p.dir, env: p.env, sessionId: 'sess' });
  const fields = JSON.parse('{"tool_name": "read_file", "__proto__": {"polluted": true}}');
  const r = await e.fire('BeforeTool', fields);
  assert.equal(Object.getPrototypeOf(r.input), Object.prototype);
  assert.equal((r.input as unknown as Record<string, unknown>).polluted, undefined);
  assert.deepEqual(Object.getOwnPropertyDescriptor(r.input, '__proto__')?.value, { polluted: true });
  assert.equal((r.input as unknown as Record<string, unknown>).tool_name, 'read_file');
  e.close();
});

test('a fire no hook matches: the whole input, no runs, no hook events', async () => {
  const p = makeProject({ project: { hooks: { BeforeTool: [{ matcher: '^write_file$', hooks: [cmd('echo {}')] }] } } });
  const e = new HookEngine({ cwd: p.dir, env: p.env, sessionId: 'sess', transcriptPath: '/t.json' });
  const events: string[] = [];
  e.on('hookStart', () => events.push('start'));
  e.on('hookEnd', () => events.push('end'));
  for (const event of ['BeforeTool', 'AfterAgent'] as const) {
    const r = await e.fire(event, { tool_name: 'read_file', tool_input: { path: 'a' }, session_id: 'given' }, { cwd: '/elsewhere' });
    assert.deepEqual(Object.keys(r).sort(), ['event', 'input', 'runs', 'sequential', 'success']);
    assert.equal(r.event, event);
    assert.deepEqual(r.runs, []);
    assert.equal(r.success, true);
    assert.equal(r.sequential, false);
    assert.equal(r.output, undefined);
    const { timestamp, ...rest } = r.input as unknown as Record<string, unknown>;
    assert.ok(!Number.isNaN(Date.parse(timestamp as string)));
    // Base fields first, the event's own fields over them, the event name last word.
    assert.deepEqual(rest, {
      session_id: 'given',
      transcript_path: '/t.json',
      cwd: '/elsewhere',
      hook_event_name: event,
      tool_name: 'read_file',
      tool_input: { path: 'a' },
    });
    assert.deepEqual(Object.keys(r.input).slice(0, 5), ['session_id', 'transcript_path', 'cwd', 'hook_event_name', 'timestamp']);
  }
  assert.deepEqual(events, []);
  e.close();
});

test('the plan memo: the same plans for repeated and many distinct values', () => {
  const entry = (matcher: string, command: string): HookEntry => ({
    event: 'BeforeTool',
    source: 'user',
    matcher,
    hook: { type: 'command', command },
    enabled: true,
  });
  const planner = new Planner([entry('^read_file$', 'a'), entry('write', 'b')]);
  const names = (v: string) => planner.plan('BeforeTool', v)?.entries.map((x) => (x.hook.type === 'command' ? x.hook.command : '')) ?? [];
  for (let round = 0; round < 3; round++) {
    assert.deepEqual(names('read_file'), ['a']);
    assert.deepEqual(names('write_file'), ['b']);
    assert.deepEqual(names('other'), []);
    // Past the memo's size, it starts afresh and the answers stay the same.
    for (let i = 0; i < 1100; i++) assert.deepEqual(names(`tool_${i}`), []);
    assert.deepEqual(names('rewrite'), ['b']);
  }
  assert.equal(planner.plan('AfterTool', 'read_file'), undefined);
  assert.deepEqual(planner.plan('BeforeTool', undefined)?.entries.length, 2);
});

test('event timestamps read as new Date().toISOString() would', () => {
  const instants = [
    0,
    999,
    1000,
    59_999,
    60_000,
    Date.UTC(2026, 10, 30, 23, 59, 59, 999),
    Date.UTC(1999, 11, 31, 23, 59, 59, 5),
    Date.now(),
  ];
  for (let i = 0; i < 2000; i++) instants.push(Math.floor(Math.random() * 4_102_444_800_000));
  // Repeats, steps of a millisecond and back, across minutes, and before 1970.
  for (const t of [...instants]) instants.push(t, t + 1, t, t - 60_000, t + 60_001);
  instants.push(-1, -60_001, -1, -86_400_000);
  for (const t of instants) assert.equal(isoNow(t), new Date(t).toISOString(), String(t));
  // A time Date refuses throws every time, and leaves nothing behind for the next call.
  isoNow(1000);
  for (let i = 0; i < 2; i++) assert.throws(() => isoNow(Number.POSITIVE_INFINITY), RangeError);
  assert.equal(isoNow(1000), new Date(1000).toISOString());
});

test('fire never throws where it is called: what fails while it builds the input is a rejected promise', async () => {
  const p = makeProject({ project: {} });
  const e = new HookEngine({ cwd: p.dir, env: p.env, sessionId: 'sess' });
  const fields = new Proxy(
    {},
    {
      getOwnPropertyDescriptor() {
        throw new Error('unreadable fields');
      },
    },
  );
  let pending: Promise<unknown> | undefined;
  assert.doesNotThrow(() => {
    pending = e.fire('BeforeTool', fields);
  });
  assert.ok(pending instanceof Promise);
  await assert.rejects(pending, /unreadable fields/);
  e.close();
});
