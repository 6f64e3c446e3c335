// Copilot CLI side by side with Hookline: every case of copilot-cases.ts runs through the real
// `copilot -p` (installed from npm into a cache folder, offline, on a loopback model server) and
// through `hookline agent --prefer-dialect copilot`; what the hooks received (in both formats), in
// what order and how often, whether the tools ran, what the model and the user were shown must
// agree, or differ only where a case names a row of the documented differences. Run with
// `npm run test:agents`.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { AGENTS, agentBin } from './agents.js';
import { prepareCopilot, runSide } from './copilot.js';
import { COPILOT_CASES } from './copilot-cases.js';
import { compare } from './observe.js';
import { hasDifferenceRow } from './harness.js';

describe(`Copilot CLI ${AGENTS.copilot.version} and Hookline`, { concurrency: 2 }, () => {
  before(
    async () => {
      agentBin(AGENTS.copilot);
      await prepareCopilot();
    },
    { timeout: 600_000 },
  );
  for (const c of COPILOT_CASES) {
    test(c.name, { timeout: 180_000 }, async () => {
      const [real, ours] = await Promise.all([runSide('copilot', c), runSide('hookline', c)]);
      try {
        assert.equal(real.exited.timedOut, false, `Copilot CLI did not finish:\n${real.exited.stderr}`);
        assert.equal(ours.exited.timedOut, false, `hookline agent did not finish:\n${ours.exited.stderr}`);
        const d = compare(real.observation, ours.observation, c.differs?.aspects ?? []);
        const lines = Object.entries(d).flatMap(([aspect, ls]) => ls.map((l) => `${aspect}: ${l}`));
        assert.deepEqual(lines, [], `Copilot CLI and Hookline differ:\n${lines.join('\n')}`);
        if (c.differs) assert.ok(hasDifferenceRow(c.differs.row), `no "${c.differs.row}" row in the documented differences`);
      } finally {
        for (const r of [real, ours]) fs.rmSync(r.dirs.base, { recursive: true, force: true });
      }
    });
  }
});
