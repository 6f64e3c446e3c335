/** `hookline stats [SESSION…] [--json]`: per hook, from the traces: runs, p50/p95 time, deny rate, failures by kind. */
import { visible } from '../config/display.js';
import { failureOf, type FailureKind } from '../decide/failure.js';
import type { TraceRunLine } from '../engine/trace.js';
import { DENYING, findTrace, listTraces, loadTrace } from './trace-file.js';
import { warn, print, printJson } from './io.js';

/** A hook whose median run takes longer than this is reported as slow (ms). */
export const SLOW_P50_MS = 1000;
/** …once it has run at least this many times (one slow start is not a pattern). */
export const SLOW_MIN_RUNS = 3;

export interface HookStats {
  dialect: string;
  event: string;
  hook: string;
  runs: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  denies: number;
  denyRate: number;
  /** Runs that failed, of any kind (timeout, crash, start, exit…). */
  errors: number;
  /** The failed runs by kind. */
  failures: Partial<Record<FailureKind, number>>;
  shadow: number;
  slow: boolean;
}

/** The nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/** How a traced run failed: as recorded, or read from its exit code and output for lines written before that was. */
const failureOfLine = (r: TraceRunLine): FailureKind | undefined =>
  r.failure ??
  failureOf({ exitCode: r.exit, stderr: r.stderr, error: r.error ?? (r.decision === 'error' ? 'error' : undefined), warning: r.warning });

export function hookStats(runs: readonly TraceRunLine[]): HookStats[] {
  const groups = new Map<string, TraceRunLine[]>();
  for (const r of runs) {
    const key = `${r.dialect}\0${r.event}\0${r.hook}`;
    const g = groups.get(key);
    if (g) g.push(r);
    else groups.set(key, [r]);
  }
  return [...groups.values()]
    .map((g) => {
      const ms = g.map((r) => r.ms).sort((a, b) => a - b);
      const denies = g.filter((r) => DENYING.has(r.decision)).length;
      const p50 = percentile(ms, 50);
      const failures: Partial<Record<FailureKind, number>> = {};
      for (const r of g) {
        const kind = failureOfLine(r);
        if (kind) failures[kind] = (failures[kind] ?? 0) + 1;
      }
      return {
        dialect: g[0].dialect,
        event: g[0].event,
        hook: g[0].hook,
        runs: g.length,
        p50Ms: p50,
        p95Ms: percentile(ms, 95),
        maxMs: ms[ms.length - 1],
        denies,
        denyRate: Math.round((denies / g.length) * 1000) / 1000,
        errors: Object.values(failures).reduce((n, k) => n + (k ?? 0), 0),
        failures,
        shadow: g.filter((r) => r.shadow).length,
        slow: g.length >= SLOW_MIN_RUNS && p50 > SLOW_P50_MS,
      };
    })
    .sort((a, b) => b.runs - a.runs || a.hook.localeCompare(b.hook));
}

const fmtMs = (ms: number): string => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);

export function statsText(stats: readonly HookStats[], sessions: number): string {
  if (!stats.length) return `no hook runs in ${sessions} trace(s)\n`;
  const header = ['HOOK', 'EVENT', 'RUNS', 'P50', 'P95', 'DENY', 'ERRORS'];
  const rows = stats.map((s) => [
    visible(s.hook.length > 50 ? `${s.hook.slice(0, 49)}…` : s.hook),
    `${s.dialect} ${s.event}`,
    String(s.runs),
    fmtMs(s.p50Ms),
    fmtMs(s.p95Ms),
    `${Math.round(s.denyRate * 100)}%`,
    s.errors
      ? `${s.errors} (${Object.entries(s.failures)
          .map(([k, n]) => `${k} ${n}`)
          .join(', ')})`
      : '0',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ');
  return `${[fmt(header), ...rows.map(fmt)].join('\n')}\n${stats.reduce((n, s) => n + s.runs, 0)} hook run(s) in ${sessions} trace(s)\n`;
}

export function slowWarnings(stats: readonly HookStats[]): string[] {
  return stats
    .filter((s) => s.slow)
    .map(
      (s) =>
        `${s.dialect} ${s.event} hook "${s.hook}": slow — its median run takes ${fmtMs(s.p50Ms)} (over ${fmtMs(SLOW_P50_MS)} in ${s.runs} runs), and the agent waits for it every time; make it faster, narrow its matcher, or make it persistent`,
    );
}

/** Statistics over the named sessions' traces, or over every trace kept. */
export function stats(sessions: string[], opts: { json?: boolean }): void {
  const files = sessions.length ? sessions.map((s) => findTrace(s)) : listTraces().map((t) => t.file);
  const runs = files.flatMap((f) => loadTrace(f).fires.flatMap((fire) => fire.runs));
  const all = hookStats(runs);
  if (opts.json) printJson({ traces: files.length, hooks: all });
  else print(statsText(all, files.length).replace(/\n$/, ''));
  for (const w of slowWarnings(all)) warn(w);
}
