// A hand-off's called agent ends with it: its hook systems are closed (their persistent hooks and
// waiting processes with them), whether its turn answered or failed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { handOff, type CalledAgent } from '../../src/agent/handoff.js';
import { Points } from '../../src/agent/points.js';
import type { Adapter } from '../../src/dialects/adapter.js';

function host(turn: CalledAgent['turn'], closed: string[]) {
  const mm: Adapter = { agents: () => ({ expert: { file: 'agent.expert.yaml' } }) } as Adapter;
  return {
    points: new Points([mm]),
    depth: 0,
    history: [],
    notice: () => {},
    spawnAgent: (name: string): CalledAgent => ({
      start: async () => {},
      turn,
      end: async () => {},
      points: { close: () => closed.push(name) },
    }),
  };
}

test('the called agent is closed after its answer, and after a turn that throws', async () => {
  const closed: string[] = [];
  const ok = await handOff(
    host(async () => ({ status: 'ok', text: 'answer' }), closed),
    'expert',
    'q',
    false,
    'tool',
  );
  assert.equal(ok.output, 'answer');
  assert.deepEqual(closed, ['expert']);
  const failed = await handOff(
    host(async () => {
      throw new Error('model down');
    }, closed),
    'expert',
    'q',
    false,
    'tool',
  );
  assert.equal(failed.status, 'error');
  assert.deepEqual(closed, ['expert', 'expert']);
});
