// The folds of the newer points over several adapters (src/agent/points.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Points } from '../../src/agent/points.js';
import type { Adapter } from '../../src/dialects/adapter.js';

test('permission, batch, compression and session-start folds: first deny or stop ends, arguments chain, contexts add up', async () => {
  const seen: unknown[] = [];
  const allow: Adapter = {
    name: 'a',
    permissionRequest: async () => ({ action: 'allow', args: { command: 'ls -la' }, systemMessage: 'a ok' }),
  };
  const asks: Adapter = {
    name: 'b',
    permissionRequest: async (p) => {
      seen.push(p.args);
      return { action: 'ask' };
    },
  };
  const deny: Adapter = { name: 'c', permissionRequest: async () => ({ action: 'deny', message: 'no', interrupt: false }) };
  assert.deepEqual(await new Points([allow, asks]).permissionRequest({ name: 'x', args: { command: 'ls' } }), {
    action: 'allow',
    args: { command: 'ls -la' },
    systemMessage: 'a ok',
  });
  assert.deepEqual(seen, [{ command: 'ls -la' }], 'a later adapter sees the earlier one’s arguments');
  assert.equal((await new Points([allow, deny, asks]).permissionRequest({ name: 'x', args: {} })).action, 'deny');
  assert.deepEqual(await new Points([asks]).permissionRequest({ name: 'x', args: {} }), { action: 'ask', systemMessage: undefined });

  const batch = (context?: string, stop?: string): Adapter => ({ name: 'b', toolBatch: async () => ({ context, stop }) });
  assert.deepEqual(await new Points([batch('one'), batch('two')]).toolBatch({ calls: [] }), {
    context: 'one\ntwo',
    systemMessage: undefined,
  });
  assert.deepEqual((await new Points([batch('one', 'halt'), batch('never')]).toolBatch({ calls: [] })).context, 'one');

  const compress = (block?: string): Adapter => ({ name: 'c', compress: async () => ({ ...(block !== undefined ? { block } : {}) }) });
  assert.equal((await new Points([compress(), compress('later')]).compress({ trigger: 'manual' })).block, 'later');
  assert.equal((await new Points([compress(), compress()]).compress({ trigger: 'auto' })).block, undefined);

  const start = (stop?: string): Adapter => ({ name: 's', sessionStart: async () => ({ ...(stop ? { stop } : {}) }) });
  assert.equal((await new Points([start(), start('first'), start('second')]).sessionStart({ source: 'startup' })).stop, 'first');
  assert.equal('stop' in (await new Points([start()]).sessionStart({ source: 'startup' })), false);

  const retry = (r: boolean): Adapter => ({ name: 'r', permissionDenied: async () => ({ retry: r }) });
  assert.equal((await new Points([retry(false), retry(true)]).permissionDenied({ id: '1', name: 'x', args: {}, reason: 'r' })).retry, true);
});
