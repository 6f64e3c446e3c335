/** `hookline trace [SESSION] [--json] [--html FILE] [--list]`: what the hooks of a session did. */
import fs from 'node:fs';
import path from 'node:path';
import { visible } from '../config/display.js';
import { UsageError } from '../config/problems.js';
import { diffLines } from 'diff';
import type { TraceChange } from '../engine/trace.js';
import { findTrace, listTraces, loadTrace, traceDir, type LoadedTrace, type TracedFire } from './trace-file.js';
import { timelineHtml } from './timeline.js';
import { warn, print, printJson } from './io.js';

const oneLine = (s: string, max = 120): string => {
  const line = visible(s.replace(/\s+/g, ' ').trim());
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/** Lines of a diff shown for one rewritten value at most. */
const DIFF_LINES = 20;

/** A rewritten field, before and after: one line, or a line diff for text of several lines. */
export function changeLines(c: TraceChange): string[] {
  if (!('after' in c)) return [];
  const { before, after } = c;
  if (typeof before === 'string' && typeof after === 'string' && (before.includes('\n') || after.includes('\n'))) {
    const lines = diffLines(before, after).flatMap((part) =>
      part.value
        .replace(/\n$/, '')
        .split('\n')
        .map((l) => `${part.added ? '+' : part.removed ? '-' : ' '} ${visible(l)}`),
    );
    const cut = lines.length > DIFF_LINES ? [...lines.slice(0, DIFF_LINES), `… (${lines.length - DIFF_LINES} more lines)`] : lines;
    return [`${visible(c.field)}:`, ...cut.map((l) => `  ${l}`)];
  }
  const show = (v: unknown) => oneLine(JSON.stringify(v) ?? 'undefined', 100);
  return [`${visible(c.field)}: ${'before' in c ? show(before) : '(new)'} → ${show(after)}`];
}

/** The tool arguments of a fire, when its full input was recorded. */
function argsOf(f: TracedFire): string {
  const input = f.fire.inputJson as { tool_input?: unknown; tool?: { input?: unknown } } | undefined;
  const args = input?.tool_input ?? input?.tool?.input;
  return args && typeof args === 'object' ? ` ${oneLine(JSON.stringify(args), 80)}` : '';
}

/** One fire as text: its decision and effect, then one indented line per run, with what it changed. */
export function fireLines(f: TracedFire, n: number): string[] {
  const { fire } = f;
  const head = `${String(n).padStart(3)}  ${fire.t.slice(11, 23)}  ${fire.dialect} ${fire.event}${fire.target ? ` ${oneLine(fire.target, 60)}` : ''}${argsOf(f)} → ${fire.decision}${fire.reason ? `: ${oneLine(fire.reason)}` : ''}${fire.effect ? ` (${oneLine(fire.effect, 80)})` : ''}`;
  const width = Math.max(0, ...f.runs.map((r) => r.decision.length));
  const runs = f.runs.map((r) => {
    const bits = [
      r.decision.padEnd(width),
      oneLine(r.hook, 70),
      `${r.ms} ms`,
      `exit ${r.exit ?? 'none'}`,
      ...(r.shadow ? ['[shadow: not enforced]'] : []),
      ...(r.failure ? [`[${r.failure}]`] : []),
      ...(r.reason ? [`— ${oneLine(r.reason, 80)}`] : []),
      ...(r.effect ? [`⇒ ${oneLine(r.effect, 80)}`] : []),
      ...(r.error ? [`(${oneLine(r.error, 80)})`] : []),
      ...(r.warning && !r.error ? [`(${oneLine(r.warning, 80)})`] : []),
    ];
    const detail = [...(r.changes ?? []).flatMap(changeLines), ...(r.context ? [`context: ${oneLine(r.context, 100)}`] : [])];
    return [`       ${bits.join('  ')}`, ...detail.map((l) => `           ${l}`)];
  });
  return [head, ...runs.flat()];
}

export function traceText(trace: LoadedTrace): string {
  const runs = trace.fires.reduce((n, f) => n + f.runs.length, 0);
  const out = [`session ${trace.session} (${trace.file}): ${trace.fires.length} event(s), ${runs} hook run(s)`];
  trace.fires.forEach((f, i) => out.push(...fireLines(f, i + 1)));
  if (trace.fires.some((f) => f.fire.inputJson === undefined))
    out.push('inputs: digests only (set "trace": {"inputs": true} in ~/.gemini/settings.json, or HOOKLINE_TRACE=inputs, for replay)');
  return `${out.join('\n')}\n`;
}

export function trace(session: string | undefined, opts: { json?: boolean; html?: string; list?: boolean }): void {
  if (opts.list) {
    const all = listTraces();
    if (opts.json) printJson(all.map((t) => ({ session: t.session, file: t.file, modified: new Date(t.mtime).toISOString() })));
    else if (!all.length) print(`no hook traces in ${traceDir()}`);
    else for (const t of all) print(`${new Date(t.mtime).toISOString()}  ${t.session}`);
    return;
  }
  const loaded = loadTrace(findTrace(session));
  if (loaded.skipped) warn(`${loaded.file}: ${loaded.skipped} line(s) are not trace records (skipped)`);
  if (opts.html !== undefined) {
    const out = path.resolve(opts.html);
    try {
      fs.writeFileSync(out, timelineHtml(loaded));
    } catch (err) {
      throw new UsageError(`cannot write ${out}: ${(err as Error).message}`);
    }
    print(`wrote ${out}: ${loaded.fires.length} event(s) of session ${loaded.session}`);
    return;
  }
  if (opts.json) printJson(loaded.lines);
  else print(traceText(loaded).replace(/\n$/, ''));
}
