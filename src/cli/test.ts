/**
 * `hookline test [PATH…]`: runs hook test fixtures through the same fire path as `hookline
 * fire`, each in a sandbox (hooktest/sandbox.ts) where the project's hooks are trusted, and
 * prints one line per fixture and `N passed, N failed`.
 */
import path from 'node:path';
import { UsageError } from '../config/problems.js';
import { systemNamed } from '../dialects/registry.js';
import { verdictOf, runsOf } from '../dialects/verdict.js';
import { DEFAULT_TEST_DIR, findFixtures, loadFixture, type HookTest } from './hooktest/fixture.js';
import { judge } from './hooktest/judge.js';
import { makeSandbox } from './hooktest/sandbox.js';
import { colorsFor, paint, print, resolveDir } from './io.js';
import { visible } from '../config/display.js';

export interface TestOptions {
  cwd?: string;
  hook?: string;
}

/** Lines of stderr shown under a failing fixture: all of a short one, the start and end of a long one. */
const STDERR_LINES = 12;

/** Why a hook's run went wrong, for a failing fixture: its exit code, its error, an excerpt of its stderr. */
export function runNotes(runs: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const run of runs) {
    if (!run || typeof run !== 'object') continue;
    const r = run as { name?: unknown; command?: unknown; exitCode?: unknown; stderr?: unknown; error?: unknown };
    const exit = typeof r.exitCode === 'number' || r.exitCode === null ? r.exitCode : 0;
    const stderr = typeof r.stderr === 'string' ? r.stderr.trimEnd() : '';
    if (exit === 0 && !r.error) continue;
    const name = typeof r.name === 'string' ? r.name : String(r.command ?? '');
    const lines = stderr ? stderr.split('\n') : [];
    const shown =
      lines.length > STDERR_LINES
        ? [...lines.slice(0, STDERR_LINES / 2), `… (${lines.length - STDERR_LINES} more lines)`, ...lines.slice(-STDERR_LINES / 2)]
        : lines;
    out.push(
      `hook ${JSON.stringify(name)} ${exit === null ? 'was stopped (no exit code)' : `exited with code ${exit}`}${shown.length ? '; its stderr:' : ', nothing on stderr'}`,
    );
    for (const l of shown) out.push(`  ${l}`);
  }
  return out;
}

interface Outcome {
  failures: string[];
  /** Lines shown under a failing fixture: warnings of the fire. */
  notes: string[];
}

async function runFixture(t: HookTest, file: string, dir: string, hookFlag: string | undefined): Promise<Outcome> {
  const system = await systemNamed(t.dialect);
  const config = t.config === undefined ? undefined : path.resolve(path.dirname(file), t.config);
  // Gemini settings are found in their usual places: a named file joins them as the system layer.
  const asSettings = system.name === 'gemini';
  const sandbox = await makeSandbox(dir, { settings: asSettings ? config : undefined, extra: t.env });
  try {
    const fired = await system.fire(t.event, t.input, {
      cwd: dir,
      cwdFlag: dir,
      config: asSettings ? undefined : config,
      hasModel: false,
      env: sandbox.env,
    });
    const raw = fired.raw ?? [];
    if (fired.exitCode) return { failures: [`${t.dialect} refused to fire (exit ${fired.exitCode})`], notes: raw };
    const hook = t.hook ?? hookFlag;
    const notes = [...fired.warnings, ...raw];
    if (hook !== undefined && !runsOf(fired, hook).length) {
      const ran = fired.runs.map((r) => (r as { name?: unknown }).name).filter((n) => typeof n === 'string');
      return { failures: [`hook ${JSON.stringify(hook)} did not run (ran: ${ran.length ? ran.join(', ') : 'none'})`], notes };
    }
    const failures = judge(t.expect, verdictOf(fired, hook));
    for (const h of fired.heldBack) failures.push(`hook ${h.name} (${h.file}) was held back: ${h.reason}`);
    if (failures.length) notes.push(...runNotes(hook !== undefined ? runsOf(fired, hook) : fired.runs));
    return { failures, notes };
  } catch (e) {
    if (e instanceof UsageError) return { failures: [e.message], notes: [] };
    throw e;
  } finally {
    sandbox.remove();
  }
}

/** Returns the exit status: 1 when any fixture failed or none was found. */
export async function hookTest(paths: string[], opts: TestOptions): Promise<number> {
  const dir = resolveDir(opts.cwd);
  const roots = paths.length ? paths.map((p) => path.resolve(p)) : [path.join(dir, DEFAULT_TEST_DIR)];
  const found = findFixtures(roots);
  const files = found.files;
  // The default folder may not exist yet: that is "no fixtures", not a failing one.
  const missing = paths.length ? found.missing : [];
  const c = colorsFor(process.stdout);
  const out = print;
  let passed = 0;
  let failed = 0;
  const fail = (name: string, why: string[], notes: string[] = []) => {
    failed++;
    out(paint(c.red('✗')), ` ${visible(name)} — ${visible(why.join('; '))}`);
    for (const n of notes) for (const l of n.split('\n')) out(`    ${visible(l)}`);
  };
  for (const m of missing) fail(path.relative(dir, m) || m, ['no such file or folder']);
  if (!files.length && !missing.length)
    throw new UsageError(
      `no hook test fixtures (*.hooktest.json, *.hooktest.yaml) in ${roots.map((r) => path.relative(dir, r) || r).join(', ')} — create one with: hookline init`,
    );
  for (const file of files) {
    const shown = path.relative(dir, file) || file;
    const loaded = loadFixture(file);
    if (!loaded.ok) {
      fail(shown, [`invalid fixture: ${loaded.problem}`]);
      continue;
    }
    const name = loaded.test.name ?? shown;
    const r = await runFixture(loaded.test, file, dir, opts.hook);
    if (r.failures.length) fail(name, r.failures, r.notes);
    else {
      passed++;
      out(paint(c.green('✓')), ` ${visible(name)}`);
    }
  }
  out(`${passed} passed, ${failed} failed`);
  return failed ? 1 : 0;
}
