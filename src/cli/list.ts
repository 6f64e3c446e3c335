import { summary } from '../dialects/list.js';
import { listHooks } from '../dialects/listing.js';
import { resolveDir, warn, print, printJson } from './io.js';
import { visible } from '../config/display.js';
import { reviewLines } from '../trust/review.js';

/** Every configured hook: Gemini settings hooks with their state, then the other systems' workspace hooks. */
export async function list(opts: { cwd?: string; json?: boolean }): Promise<void> {
  const { hooks, warnings } = await listHooks(resolveDir(opts.cwd));
  for (const w of warnings) warn(w);
  if (opts.json) {
    printJson({ hooks, summary: summary(hooks) });
    return;
  }
  const rows = hooks.map((h) =>
    [
      h.event,
      h.matcher ?? '*',
      h.name,
      h.plugin ? `${h.source} plugin ${h.plugin}` : h.source,
      h.enabled ? 'enabled' : 'disabled',
      h.trusted ? 'trusted' : 'untrusted',
    ].map(visible),
  );
  const header = ['EVENT', 'MATCHER', 'NAME', 'SOURCE', 'STATE', 'TRUST'];
  const widths = header.map((_, i) => Math.max(header[i].length, ...rows.map((r) => r[i].length)));
  const fmt = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ');
  // Each hook's other fields, and the variables of yours it reads, on the lines under it.
  const under = hooks.map((h) => reviewLines({ details: h.details ?? [], reads: h.reads ?? [] }).map((l) => `    ${l}`));
  if (rows.length) print([fmt(header), ...rows.flatMap((r, i) => [fmt(r), ...under[i]])].join('\n'));
  print(summary(hooks));
}
