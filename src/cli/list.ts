import { formatProblem } from '../config/problems.js';
import { loadContext } from '../engine/index.js';
import { heldWarnings, listGeminiHooks } from '../dialects/gemini/system.js';
import { summary, type ListedHook } from '../dialects/list.js';
import { allSystems, findWorkspaceHooks } from '../dialects/registry.js';
import { heldDialectHooks } from '../trust/dialects.js';
import { resolveDir, warn } from './io.js';

/** Every configured hook: Gemini settings hooks with their state, then the other systems' workspace hooks. */
export async function list(opts: { cwd?: string; json?: boolean }): Promise<void> {
  const ctx = loadContext({ cwd: resolveDir(opts.cwd) });
  for (const p of ctx.config.problems) warn(formatProblem(p));
  for (const w of heldWarnings(ctx)) warn(w);
  const others = (await findWorkspaceHooks(ctx.projectDir)).filter((h) => h.source !== 'gemini');
  // Listing records nothing: it only says what would be held back.
  const { held, warning } = heldDialectHooks(ctx.projectDir, others, ctx.trust, ctx.env, { record: false });
  if (warning) warn(warning);
  const dialect: ListedHook[] = others.map((h) => ({
    event: h.event,
    matcher: h.matcher ?? null,
    name: h.name,
    command: h.command,
    source: h.source,
    file: h.file,
    enabled: true,
    trusted: !held.has(h.id),
    ...(h.plugin ? { plugin: h.plugin } : {}),
  }));
  // The other systems' own hooks (the user's, policy's, plugins'): they run wherever the user works.
  const own = (await allSystems()).flatMap((s) => s.listHooks?.(ctx.projectDir, ctx.env) ?? []);
  const hooks = [...listGeminiHooks(ctx), ...own, ...dialect];
  if (opts.json) {
    process.stdout.write(JSON.stringify({ hooks, summary: summary(hooks) }, null, 2) + '\n');
    return;
  }
  const rows = hooks.map((h) => [h.event, h.matcher ?? '*', h.name, h.plugin ? `${h.source} plugin ${h.plugin}` : h.source, h.enabled ? 'enabled' : 'disabled', h.trusted ? 'trusted' : 'untrusted']);
  const header = ['EVENT', 'MATCHER', 'NAME', 'SOURCE', 'STATE', 'TRUST'];
  const widths = header.map((_, i) => Math.max(header[i].length, ...rows.map((r) => r[i].length)));
  const fmt = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ');
  if (rows.length) process.stdout.write([fmt(header), ...rows.map(fmt)].join('\n') + '\n');
  process.stdout.write(summary(hooks) + '\n');
}
