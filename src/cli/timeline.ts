/**
 * A trace as one self-contained HTML page: a lane per event, a bar per hook run placed by its
 * start and length, coloured by its decision; hovering a bar shows the hook, its answer, its
 * input digest, effect and stderr. No script, font or style is loaded from anywhere.
 */
import type { TraceRunLine } from '../engine/trace.js';
import type { LoadedTrace } from './trace-file.js';

/** Bar colours by decision (also the legend, and what the screenshot test looks for). */
export const DECISION_COLOURS: Readonly<Record<string, string>> = {
  allow: '#2e7d32',
  deny: '#c62828',
  ask: '#f9a825',
  stop: '#6a1b9a',
  error: '#ef6c00',
  ok: '#78909c',
};

/** The colour group of a decision as any hook system writes it. */
export function colourGroup(decision: string): keyof typeof DECISION_COLOURS {
  switch (decision) {
    case 'allow':
    case 'approve':
    case 'continue':
      return 'allow';
    case 'deny':
    case 'block':
      return 'deny';
    case 'ask':
    case 'force_ask':
    case 'defer':
      return 'ask';
    case 'stop':
      return 'stop';
    case 'error':
    case 'failed':
      return 'error';
    default:
      return 'ok';
  }
}

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function tooltip(r: TraceRunLine): string {
  return [
    `${r.hook} (${r.dialect} ${r.event}${r.target ? ` ${r.target}` : ''})`,
    `decision: ${r.decision}${r.shadow ? ' (shadow: not enforced)' : ''}${r.reason ? ` — ${r.reason}` : ''}`,
    r.effect ? `effect: ${r.effect}` : '',
    ...(r.changes ?? []).map((c) =>
      'after' in c ? `${c.field}: ${JSON.stringify(c.before) ?? '(new)'} → ${JSON.stringify(c.after)}` : '',
    ),
    r.context ? `context: ${r.context}` : '',
    r.failure ? `failure: ${r.failure}` : '',
    `${r.ms} ms, exit ${r.exit ?? 'none'}, started ${r.start}`,
    `input: ${r.input}`,
    r.file ? `file: ${r.file}` : '',
    r.error ? `error: ${r.error}` : '',
    r.stderr ? `stderr: ${r.stderr}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

const ROW_HEIGHT = 26;
const BAR_HEIGHT = 22;
const LANE_PAD = 6;
const LABEL_WIDTH = 210;

/**
 * Time on the page: the busy stretches as they were, each idle gap between them shortened to at
 * most `gapCap` ms, so a session of hours still shows its millisecond hooks.
 */
export function compressTime(intervals: ReadonlyArray<readonly [number, number]>, gapCap: number): (t: number) => number {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [s, e] of sorted) {
    const last = merged[merged.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else merged.push([s, e]);
  }
  const shifts: Array<{ from: number; shift: number }> = [];
  let shift = 0;
  for (let i = 0; i < merged.length; i++) {
    if (i > 0) shift += Math.max(0, merged[i][0] - merged[i - 1][1] - gapCap);
    shifts.push({ from: merged[i][0], shift });
  }
  return (t) => {
    let k = 0;
    while (k + 1 < shifts.length && shifts[k + 1].from <= t) k++;
    return t - (shifts[k]?.shift ?? 0);
  };
}

/** Rows within a lane so that runs at the same time (parallel hooks) do not overlap. */
function packRows(spans: ReadonlyArray<readonly [number, number]>): number[] {
  const ends: number[] = [];
  return spans.map(([s, e]) => {
    let row = ends.findIndex((end) => end <= s);
    if (row < 0) row = ends.push(e) - 1;
    else ends[row] = e;
    return row;
  });
}

/** The page. Bars are at least a few pixels wide, so a 1 ms hook in a long session still shows. */
export function timelineHtml(trace: Pick<LoadedTrace, 'session' | 'fires'>): string {
  const runs = trace.fires.flatMap((f) => f.runs);
  const events = [...new Set(trace.fires.map((f) => `${f.fire.dialect} ${f.fire.event}`))];
  const raw = runs.map((r) => [Date.parse(r.start), Date.parse(r.start) + r.ms] as const);
  const busy = raw.reduce((n, [s, e]) => n + (e - s), 0);
  const at = compressTime(raw, Math.max(busy * 0.05, 5));
  const spans = raw.map(([s, e]) => [at(s), at(s) + (e - s)] as const);
  const t0 = spans.length ? Math.min(...spans.map(([s]) => s)) : 0;
  const t1 = spans.length ? Math.max(...spans.map(([, e]) => e)) : 1;
  const span = Math.max(t1 - t0, 1);
  let top = 0;
  const lanes = events
    .map((ev) => {
      const mine = runs.map((r, i) => ({ r, i })).filter(({ r }) => `${r.dialect} ${r.event}` === ev);
      const rows = packRows(mine.map(({ i }) => spans[i]));
      const height = Math.max(1, ...rows.map((r) => r + 1)) * ROW_HEIGHT + 2 * LANE_PAD;
      const bars = mine
        .map(({ r, i }, k) => {
          const left = ((spans[i][0] - t0) / span) * 100;
          const width = (r.ms / span) * 100;
          const group = colourGroup(r.decision);
          return `<div class="bar${r.shadow ? ' shadow' : ''}" data-decision="${escapeHtml(r.decision)}" data-group="${group}" style="left:${left.toFixed(3)}%;width:${width.toFixed(3)}%;top:${rows[k] * ROW_HEIGHT}px;background:${DECISION_COLOURS[group]}" title="${escapeHtml(tooltip(r))}"></div>`;
        })
        .join('');
      const lane = `<div class="lane" style="top:${top}px;height:${height}px"><div class="label">${escapeHtml(ev)}</div><div class="track" style="height:${height - 2 * LANE_PAD}px">${bars}</div></div>`;
      top += height;
      return lane;
    })
    .join('\n');
  const legend = Object.entries(DECISION_COLOURS)
    .map(([k, c]) => `<span class="key"><i style="background:${c}"></i>${k}</span>`)
    .join('');
  const rows = trace.fires
    .map((f, n) =>
      f.runs
        .map(
          (r) =>
            `<tr><td>${n + 1}</td><td>${escapeHtml(r.start.slice(11, 23))}</td><td>${escapeHtml(r.dialect)}</td><td>${escapeHtml(r.event)}${r.target ? ` <code>${escapeHtml(r.target)}</code>` : ''}</td><td>${escapeHtml(r.hook)}</td><td class="d-${colourGroup(r.decision)}">${escapeHtml(r.decision)}${r.shadow ? ' (shadow)' : ''}</td><td>${escapeHtml(String(r.ms))} ms</td><td>${escapeHtml(r.reason ?? '')}</td></tr>`,
        )
        .join('\n'),
    )
    .join('\n');
  const seconds = ((raw.length ? Math.max(...raw.map(([, e]) => e)) - Math.min(...raw.map(([s]) => s)) : 0) / 1000).toFixed(3);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Hook trace ${escapeHtml(trace.session)}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:20px;color:#222;background:#fff}
h1{font-size:18px;margin:0 0 4px}
.meta{color:#555;margin-bottom:12px}
.timeline{position:relative;height:${top}px;margin-bottom:8px}
.lane{position:absolute;left:0;right:0;border-bottom:1px solid #e0e0e0}
.label{position:absolute;left:0;width:${LABEL_WIDTH - 10}px;top:8px;font-size:13px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.track{position:absolute;left:${LABEL_WIDTH}px;right:10px;top:${LANE_PAD}px;background:#f5f5f5}
.bar{position:absolute;top:0;height:${BAR_HEIGHT}px;min-width:8px;border-radius:2px;cursor:default}
.bar.shadow{opacity:.45;outline:2px dashed #222;outline-offset:-2px}
.bar:hover{outline:2px solid #000}
.legend{margin:8px 0 16px}.key{margin-right:14px}.key i{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:-1px}
table{border-collapse:collapse;font-size:13px}td,th{border-bottom:1px solid #eee;padding:3px 8px;text-align:left;vertical-align:top}
${Object.entries(DECISION_COLOURS)
  .map(([k, c]) => `.d-${k}{color:${c};font-weight:600}`)
  .join('')}
</style></head>
<body>
<h1>Hook trace ${escapeHtml(trace.session)}</h1>
<div class="meta">${trace.fires.length} event(s), ${runs.length} hook run(s) over ${seconds} s (idle gaps shortened)${runs.length ? `, from ${new Date(Math.min(...raw.map(([s]) => s))).toISOString()}` : ''}. Hover a bar for its hook, answer, input digest and stderr; a dashed bar ran in shadow mode.</div>
<div class="timeline">
${lanes}
</div>
<div class="legend">${legend}</div>
<table><thead><tr><th>#</th><th>time</th><th>dialect</th><th>event</th><th>hook</th><th>decision</th><th>took</th><th>reason</th></tr></thead><tbody>
${rows}
</tbody></table>
</body></html>
`;
}
