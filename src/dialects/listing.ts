/** Every configured hook in a folder, as `hookline list` prints it and `hookline serve` returns it. */
import { formatProblem } from '../config/problems.js';
import { loadContext } from '../engine/index.js';
import { heldDialectHooks } from '../trust/dialects.js';
import { heldWarnings, listGeminiHooks } from './gemini/system.js';
import type { ListedHook } from './list.js';
import { allSystems, findWorkspaceHooks } from './registry.js';

/** Gemini settings hooks with their state, then the other systems' workspace hooks; warnings are for stderr. */
export async function listHooks(dir: string, env: NodeJS.ProcessEnv = process.env): Promise<{ hooks: ListedHook[]; warnings: string[] }> {
  const ctx = loadContext({ cwd: dir, env });
  const warnings = [...ctx.config.problems.map(formatProblem), ...heldWarnings(ctx)];
  // A hook two dialects read (Claude Code's settings, Copilot CLI's too) is listed once, by its own file's dialect.
  const others = (await findWorkspaceHooks(ctx.projectDir, env)).filter((h) => h.source !== 'gemini' && !h.shared);
  // Listing records nothing: it only says what would be held back.
  const { held, warning } = heldDialectHooks(ctx.projectDir, others, ctx.trust, ctx.env, { record: false });
  if (warning) warnings.push(warning);
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
    ...(h.setting ? { setting: true } : {}),
    details: h.review?.details ?? [],
    reads: h.review?.reads ?? [],
  }));
  const systems = await allSystems();
  // A broken configuration of another system lists no hook from it: say why, as validate would.
  for (const s of systems) {
    let v: ReturnType<typeof s.validate>;
    try {
      if (s.name === 'gemini' || !s.configured({ cwd: ctx.projectDir, env })) continue;
      v = s.validate({ cwd: ctx.projectDir, cwdFlag: ctx.projectDir, env });
    } catch (e) {
      warnings.push(`${s.name}: ${(e as Error).message}`);
      continue;
    }
    // Its problems, not its summary line ("… 1 error(s), 0 warning(s)").
    if (v.errors)
      warnings.push(...v.lines.filter((l) => l.trim() && !/error\(s\), \d+ warning\(s\)$/.test(l)).map((l) => `${s.name}: ${l}`));
  }
  // The other systems' own hooks (the user's, policy's, plugins'): they run wherever the user works.
  const own = systems.flatMap((s) => s.listHooks?.(ctx.projectDir, env) ?? []);
  return { hooks: [...listGeminiHooks(ctx), ...own, ...dialect], warnings };
}
