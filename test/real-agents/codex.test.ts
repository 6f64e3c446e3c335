// Codex side by side with Hookline: every case of codex-cases.ts runs through the real `codex
// exec` (installed from npm into a cache folder, offline, on a loopback model server) and through
// `hookline agent`; what the hooks received, how often they ran, whether the tools ran, what the
// model and the user were shown must agree, or differ only where a case names a row of the
// documented differences. Run with `npm run test:agents`.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { AGENTS, agentBin } from './agents.js';
import { runSide } from './codex.js';
import { CODEX_CASES } from './codex-cases.js';
import { compare } from './observe.js';
import { hasDifferenceRow } from './harness.js';

describe(`Codex ${AGENTS.codex.version} and Hookline`, { concurrency: 2 }, () => {
  before(() => agentBin(AGENTS.codex), { timeout: 600_000 });
  for (const c of CODEX_CASES) {
    test(c.name, { timeout: 180_000 }, async () => {
      const [real, ours] = await Promise.all([runSide('codex', c), runSide('hookline', c)]);
      try {
        assert.equal(real.exited.timedOut, false, `Codex did not finish:\n${real.exited.stderr}`);
        assert.equal(ours.exited.timedOut, false, `hookline agent did not finish:\n${ours.exited.stderr}`);
        // Both sides compute the trust records the same way: a wrong hash would run nothing on either, so the real side must run hooks.
        if (c.noneRun) assert.deepEqual(real.observation.counts, {}, 'a hook ran on Codex');
        else assert.ok(Object.keys(real.observation.counts).length, `no hook ran on Codex:\n${real.exited.stderr}`);
        const d = compare(real.observation, ours.observation, c.differs?.aspects ?? [], c.mayNotRun);
        const lines = Object.entries(d).flatMap(([aspect, ls]) => ls.map((l) => `${aspect}: ${l}`));
        assert.deepEqual(lines, [], `Codex and Hookline differ:\n${lines.join('\n')}`);
        if (c.differs) assert.ok(hasDifferenceRow(c.differs.row), `no "${c.differs.row}" row in the documented differences`);
        // Held back on Hookline's side, never silently.
        if (c.held) assert.match(ours.exited.stderr, /do not run|does not load|not trusted/, 'Hookline said nothing about the held hooks');
      } finally {
        for (const r of [real, ours]) fs.rmSync(r.dirs.base, { recursive: true, force: true });
      }
    });
  }
});
