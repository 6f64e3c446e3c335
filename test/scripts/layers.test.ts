// scripts/layers.mjs, run as `npm run lint` runs it, over small source trees written for each case.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../helpers.js';

const SCRIPT = path.join(ROOT, 'scripts', 'layers.mjs');
const roots: string[] = [];
after(() => {
  for (const r of roots) fs.rmSync(r, { recursive: true, force: true });
});

/** Writes `files` (path under the root → text) into a fresh folder and runs the check on it. */
function check(files: Record<string, string>) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-layers-'));
  roots.push(root);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  const r = spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });
  return { status: r.status, lines: r.stdout.split('\n').filter(Boolean), stderr: r.stderr };
}

describe('import layers and cycles', () => {
  test('imports down the stages and within a stage pass', () => {
    const r = check({
      'src/events/names.ts': 'export const a = 1;\n',
      'src/run/command.ts': "import { a } from '../events/names.js';\nexport const b = a;\n",
      'src/telemetry.ts': "import { b } from './run/command.js';\nexport const t = b;\n",
      'src/engine.ts': "import { t } from './telemetry.js';\nimport type { X } from './engine/types.js';\nexport const e = t;\n",
      'src/engine/types.ts': 'export type X = number;\n',
      'src/agent/loop.ts':
        "import { e } from '../engine.js';\nimport { h } from './help.js';\nimport pc from 'picocolors';\nexport { e, h, pc };\n",
      'src/agent/help.ts': 'export const h = 2;\n',
      'src/cli/main.ts': "import '../agent/loop.js';\nexport * from '../sdk/index.js';\n",
      'src/sdk/index.ts': "export { a } from '../events/names.js';\n",
      'src/index.ts': "export * from './cli/main.js';\n",
    });
    assert.deepEqual(r.lines, []);
    assert.equal(r.status, 0, r.stderr);
  });

  test('an import from a higher stage fails with one line per import, whatever form it takes', () => {
    const r = check({
      'src/run/command.ts': "import { parse } from '../decide/parse.js';\nexport const run = parse;\n",
      'src/run/persistent.ts': "import type { P } from '../decide/parse.js';\nexport type Q = P;\n",
      'src/config/load.ts': "export async function load() {\n  return import('../plan/plan.js');\n}\n",
      'src/events/output.ts': "export type O = import('../apply/effects.js').Effect;\n",
      'src/agent/interactive.ts': "export { list } from '../cli/list.js';\n",
      'src/decide/parse.ts': 'export type P = string;\nexport const parse = (s: string) => s;\n',
      'src/plan/plan.ts': 'export const plan = 1;\n',
      'src/apply/effects.ts': 'export type Effect = { kind: string };\n',
      'src/cli/list.ts': 'export const list = 1;\n',
    });
    assert.equal(r.status, 1);
    assert.deepEqual(r.lines, [
      'src/agent/interactive.ts → src/cli/list.ts: layer: agent may not import from ways in',
      'src/config/load.ts → src/plan/plan.ts: layer: config may not import from plan',
      'src/events/output.ts → src/apply/effects.ts: layer: events may not import from apply (type-only)',
      'src/run/command.ts → src/decide/parse.ts: layer: run may not import from decide',
      'src/run/persistent.ts → src/decide/parse.ts: layer: run may not import from decide (type-only)',
    ]);
    assert.match(r.stderr, /5 violations/);
  });

  test('a cycle fails on every import that closes it, naming the way back', () => {
    const r = check({
      'src/agent/loop.ts': "import { handoff } from './handoff.js';\nexport const loop = () => handoff;\n",
      'src/agent/handoff.ts': "import type { Loop } from './types.js';\nexport const handoff = 1;\nexport type H = Loop;\n",
      'src/agent/types.ts': "import { loop } from './loop.js';\nexport type Loop = typeof loop;\n",
      'src/agent/self.ts': "import * as me from './self.js';\nexport const x = me;\n",
    });
    assert.equal(r.status, 1);
    assert.deepEqual(r.lines, [
      'src/agent/handoff.ts → src/agent/types.ts: cycle (type-only): src/agent/handoff.ts → src/agent/types.ts → src/agent/loop.ts → src/agent/handoff.ts',
      'src/agent/loop.ts → src/agent/handoff.ts: cycle: src/agent/loop.ts → src/agent/handoff.ts → src/agent/types.ts → src/agent/loop.ts',
      'src/agent/self.ts → src/agent/self.ts: cycle: src/agent/self.ts → src/agent/self.ts',
      'src/agent/types.ts → src/agent/loop.ts: cycle: src/agent/types.ts → src/agent/loop.ts → src/agent/handoff.ts → src/agent/types.ts',
    ]);
  });

  test('a file outside every stage fails rather than passing unchecked', () => {
    const r = check({ 'src/misc/thing.ts': 'export const x = 1;\n' });
    assert.equal(r.status, 1);
    assert.deepEqual(r.lines, ['src/misc/thing.ts → src/misc/thing.ts: belongs to no stage (add it to STAGES in scripts/layers.mjs)']);
  });
});
