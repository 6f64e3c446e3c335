/** `hookline doctor`: every configured hook, whether it would run for an event and tool, and why not. */
import { DIALECTS, allSystems } from '../dialects/registry.js';
import { installLines, installStatus } from '../relay/status.js';
import { ownEntries } from './list.js';
import { diagnose, type DoctorHook, type DoctorReport } from '../dialects/doctor.js';
import { MAPS } from '../dialects/convert/maps.js';
import { EVENT_NAMES } from '../events/names.js';
import { KNOWN_TOOL_NAMES } from '../events/tools.js';
import { type Painted, visible } from '../config/display.js';
import { reviewLines } from '../trust/review.js';
import { colorsFor, paint, print, printJson, resolveDir, UsageError } from './io.js';
import path from 'node:path';
import { isInside } from '../config/paths.js';
import type { TraceRunLine } from '../engine/trace.js';
import { listTraces, loadTrace } from './trace-file.js';

/** How many of the latest traces are read for each hook's last run. */
export const TRACES_READ = 20;

/** A hook's last traced run, when it failed: when, in which session, how, and what it said. */
export interface LastRun {
  at: string;
  session: string;
  failure: string;
  detail?: string;
}

/**
 * Each hook's latest run in the latest traces of this folder, kept when it failed: a guard that
 * crashed or printed broken JSON runs, yet decides nothing. Keyed by `dialect\0name\0file`.
 */
export function lastFailures(folder: string, hooks: readonly DoctorHook[], env: NodeJS.ProcessEnv = process.env): Map<DoctorHook, LastRun> {
  const wanted = new Map(hooks.map((h) => [`${h.dialect}\0${h.name}`, h]));
  const seen = new Set<string>();
  const out = new Map<DoctorHook, LastRun>();
  for (const t of listTraces(env).slice(0, TRACES_READ)) {
    let fires: ReturnType<typeof loadTrace>['fires'];
    try {
      fires = loadTrace(t.file).fires;
    } catch {
      continue;
    }
    for (let i = fires.length - 1; i >= 0; i--) {
      const { fire, runs } = fires[i];
      if (!fire.cwd || !isInside(folder, fire.cwd)) continue;
      for (const r of runs) {
        const h = wanted.get(`${r.dialect}\0${r.hook}`);
        if (!h || seen.has(`${r.dialect}\0${r.hook}`) || !sameFile(folder, h, r)) continue;
        seen.add(`${r.dialect}\0${r.hook}`);
        if (r.failure) out.set(h, { at: r.t, session: r.session, failure: r.failure, ...detailOf(r) });
      }
    }
  }
  return out;
}

const sameFile = (folder: string, h: DoctorHook, r: TraceRunLine) => !r.file || !h.file || path.resolve(folder, h.file) === r.file;
const detailOf = (r: TraceRunLine) => {
  const d = (r.error ?? r.warning)?.replace(/^.*?\): /, '');
  return d ? { detail: d.split('\n')[0] } : {};
};

export interface DoctorCliOptions {
  cwd?: string;
  event?: string;
  tool?: string;
  json?: boolean;
}

/** True when something would silently not run: a broken hook, a configuration error, an interpreter that does not start. */
export function unhealthy(r: DoctorReport): boolean {
  return r.configErrors > 0 || r.hooks.some((h) => h.state === 'broken') || r.spawn.some((s) => s.problem);
}

export async function doctor(opts: DoctorCliOptions): Promise<number> {
  const cwd = resolveDir(opts.cwd);
  if (opts.event !== undefined) {
    const known = new Set<string>([...EVENT_NAMES, ...(await allSystems()).flatMap((s) => s.events)]);
    if (!known.has(opts.event))
      throw new UsageError(
        `--event: unknown event "${opts.event}": no hook system (${DIALECTS.join(', ')}) fires it; Gemini names: ${EVENT_NAMES.join(', ')}`,
      );
  }
  const all = await diagnose({ cwd, env: process.env, event: opts.event, tool: opts.tool });
  // Hookline's own entries in an agent's settings are checked with the install lines below, not as the user's hooks.
  const own = ownEntries(all.folder);
  const diagnosed = { ...all, hooks: all.hooks.filter((h) => !own(h)) };
  const last = lastFailures(diagnosed.folder, diagnosed.hooks);
  // A hook whose last run failed decided nothing then: it would not do its work.
  const r: DoctorReport = {
    ...diagnosed,
    hooks: diagnosed.hooks.map((h) => {
      const l = last.get(h);
      if (!l) return h;
      const line = `its last run failed (${l.failure}${l.detail ? `: ${l.detail}` : ''}) — ${l.at}, session ${l.session}; hookline explain ${l.session}`;
      return { ...h, state: h.state === 'runs' ? 'broken' : h.state, why: [...h.why, line], lastRun: l };
    }),
  };
  const installs = installStatus(r.folder);
  const bad = unhealthy(r) || installs.some((s) => s.problems.length > 0);
  if (opts.json) {
    printJson({ ...r, installs, ok: !bad });
    return bad ? 1 : 0;
  }
  const c = colorsFor(process.stdout);
  const out = print;
  const asked = [opts.event && `event ${opts.event}`, opts.tool && `tool ${opts.tool}`].filter(Boolean).join(', ');
  out(
    `${visible(r.folder)}: folder ${r.trust === 'untrusted' ? 'not trusted' : r.trust === 'assumed' ? 'trusted (assumed)' : 'trusted'}${asked ? `; for ${asked}` : ''}`,
  );
  for (const l of r.config) out('  ', paint(c.yellow('!')), ` ${l}`);
  const mark: Record<DoctorHook['state'], Painted> = {
    runs: paint(c.green('✓')),
    off: paint(c.dim('○')),
    elsewhere: paint(c.dim('–')),
    broken: paint(c.red('✗')),
  };
  for (const h of r.hooks) {
    const where = `${h.dialect} ${h.source} ${h.event}${h.matcher ? ` ${h.matcher}` : ''} ${h.name}${h.file ? ` (${h.file})` : ''}`;
    out(mark[h.state], ` ${visible(where)}`);
    for (const l of reviewLines(h)) out(`    ${l}`);
    for (const w of h.why) out(`    ${visible(w)}`);
  }
  for (const s of r.spawn)
    out(
      paint(s.problem ? c.red('✗') : c.green('✓')),
      ` interpreter ${s.interpreter} (${visible(s.path)})${s.problem ? `: ${visible(s.problem)}` : ' starts'}`,
    );
  for (const l of installLines(installs)) out(paint(l.ok ? c.green('✓') : c.red('✗')), ` ${visible(l.line.trim())}`);
  const count = (st: DoctorHook['state']) => r.hooks.filter((h) => h.state === st).length;
  out(
    `${r.hooks.length} hook(s): ${count('runs')} would run, ${count('broken')} would not, ${count('off')} disabled, ${count('elsewhere')} not for this ${opts.tool ? 'event or tool' : 'event'}${r.configErrors ? `; ${r.configErrors} configuration error(s)` : ''}`,
  );
  if (
    opts.tool !== undefined &&
    !KNOWN_TOOL_NAMES.includes(opts.tool) &&
    !Object.values(MAPS).some((m) => m.toolBack(opts.tool!) !== opts.tool)
  )
    out(`note: "${visible(opts.tool)}" is not a tool of the reference agent (${KNOWN_TOOL_NAMES.join(', ')}); matched as given`);
  return bad ? 1 : 0;
}
