// Differential conformance: every case of scripts/conformance/cases.mjs is fired through the real
// `hookline fire` and compared with what the reference engine gave (test/conformance/golden.json,
// written by scripts/conformance/reference.mjs). Cases with `fix` expect `hooklineExpected` instead.
// Each golden entry is sealed (scripts/conformance/seal.mjs): a case changed since the goldens were
// generated, a golden edited by hand or one from another reference version fails here.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { cases, readCaptures, type ConformanceCase as Case } from '../../scripts/conformance/cases.mjs';
import { REFERENCE, caseHash, entryDigest } from '../../scripts/conformance/seal.mjs';
import { HOOKS, ROOT, makeProject, runCli } from '../helpers.js';

interface Run {
  success: boolean;
  exitCode: number | null;
  output: unknown;
  error: string | null;
}

interface Golden {
  name: string;
  reference: string;
  caseHash: string;
  digest: string;
  [field: string]: unknown;
}

const golden = JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'conformance', 'golden.json'), 'utf8')) as {
  reference: string;
  cases: Golden[];
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

const REGENERATE = 'regenerate the goldens (CONTRIBUTING.md, "Tests")';

/** The golden entry for a case, once its seals hold. */
function sealed(c: Case): Golden {
  const g = byName.get(c.name);
  assert.ok(g, `no golden entry for "${c.name}": ${REGENERATE}`);
  assert.equal(g.reference, REFERENCE, `golden "${c.name}" is from ${g.reference}, not ${REFERENCE}: ${REGENERATE}`);
  assert.equal(g.caseHash, caseHash(c), `case "${c.name}" changed since its golden was generated: ${REGENERATE}`);
  assert.equal(g.digest, entryDigest(g), `golden "${c.name}" was edited by hand: ${REGENERATE}`);
  return g;
}

describe(`conformance with ${REFERENCE}`, { concurrency: 4 }, () => {
  for (const c of cases) {
    it(c.name, c.todo ? { todo: c.todo } : {}, async () => {
      const { name: _n, reference: _r, caseHash: _h, digest: _d, ...reference } = sealed(c);
      const expected = c.fix ? { ...reference, ...c.hooklineExpected } : reference;
      assert.deepStrictEqual(await fireHookline(c), expected);
    });
  }

  it('golden file covers exactly the cases', () => {
    assert.deepStrictEqual(
      golden.cases.map((g) => g.name),
      cases.map((c) => c.name),
    );
  });

  it('every golden is sealed, todo cases included', () => {
    assert.equal(golden.reference, REFERENCE);
    for (const c of cases) sealed(c);
  });

  it('a case hash follows what the reference is given, not key order or Hookline-only fields', () => {
    const c = cases.find((x) => JSON.stringify(x.settings).includes('$CONF_HOOKS/conf-capture.sh'))!;
    const h = caseHash(c);
    const reordered = Object.fromEntries(Object.entries(c).reverse()) as unknown as Case;
    assert.equal(caseHash(reordered), h);
    assert.equal(caseHash({ ...c, fix: 'why', hooklineExpected: { output: null }, todo: 'later' }), h);
    for (const changed of [
      { ...c, event: 'AfterTool' },
      { ...c, input: { ...c.input, extra: 1 } },
      { ...c, disabled: ['x'] },
      { ...c, settings: JSON.parse(JSON.stringify(c.settings).replace('conf-capture.sh', 'conf-slow.sh')) },
    ]) {
      assert.notEqual(caseHash(changed), h);
    }
  });

  it('a golden digest changes with any field of the entry', () => {
    const g = golden.cases[0];
    assert.equal(entryDigest({ ...g, digest: 'anything' }), g.digest);
    for (const k of Object.keys(g).filter((k) => k !== 'digest')) assert.notEqual(entryDigest({ ...g, [k]: 'edited' }), g.digest, k);
  });
});
