// Differential conformance: every case of scripts/conformance/cases.mjs is fired through the real
// `hookline fire` and compared with what the reference engine gave (test/conformance/golden.json,
// written by scripts/conformance/reference.mjs). Cases with `fix` expect `hooklineExpected` instead.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { cases, readCaptures, type ConformanceCase as Case } from '../../scripts/conformance/cases.mjs';
import { HOOKS, ROOT, makeProject, runCli } from '../helpers.js';

interface Run {
  success: boolean;
  exitCode: number | null;
  output: unknown;
  error: string | null;
}

const golden = JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'conformance', 'golden.json'), 'utf8')) as {
  cases: Array<{ name: string } & Record<string, unknown>>;
};
const byName = new Map(golden.cases.map((g) => [g.name, g]));

// The reference passes the whole environment to hooks unless redaction is on; match it.
const REDACTION_OFF = { security: { environmentVariableRedaction: { enabled: false } } };

async function fireHookline(c: Case): Promise<Record<string, unknown>> {
  const project = makeProject({
    project: { hooks: c.settings, ...(c.disabled ? { hooksConfig: { disabled: c.disabled } } : {}) },
    user: REDACTION_OFF,
  });
  const base = path.dirname(project.dir);
  try {
    const inputFile = path.join(base, 'input.json');
    fs.writeFileSync(inputFile, JSON.stringify(c.input));
    const r = await runCli(['fire', c.event, '--input', inputFile, '--cwd', project.dir], {
      cwd: project.dir,
      env: { ...project.env, CONF_HOOKS: HOOKS },
    });
    assert.equal(r.code, 0, `hookline fire exited ${r.code}: ${r.stderr}`);
    const res = r.json() as { output: unknown; runs: Run[] };
    const actual: Record<string, unknown> = {
      // The reference's aggregate fails only on hook errors (timeouts, spawn failures), never on exit codes.
      success: res.runs.every((run) => run.error === null),
      output: res.output,
      runs: res.runs.map((run) => ({ success: run.success, exitCode: run.exitCode, output: run.output })),
    };
    const stdin = readCaptures(project.dir);
    if (stdin) actual.stdin = stdin;
    return actual;
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
}

describe('conformance with @google/gemini-cli-core 0.61.0', { concurrency: 4 }, () => {
  for (const c of cases) {
    it(c.name, c.todo ? { todo: c.todo } : {}, async () => {
      const g = byName.get(c.name);
      assert.ok(g, `no golden entry for "${c.name}": run node scripts/conformance/reference.mjs`);
      const { name: _n, ...reference } = g;
      const expected = c.fix ? { ...reference, ...c.hooklineExpected } : reference;
      assert.deepStrictEqual(await fireHookline(c), expected);
    });
  }

  it('golden file covers exactly the cases', () => {
    assert.deepStrictEqual(golden.cases.map((g) => g.name), cases.map((c) => c.name));
  });
});
