import { HookEngine } from '../engine.js';
import { displayName } from '../config/schema.js';
import { formatProblem } from '../config/problems.js';
import { EVENT_NAMES } from '../events/names.js';
import { heldDialectHooks } from '../trust/dialects.js';
import { resolveDir, warn } from './io.js';
import { reportHeld } from './trust.js';
import { visible } from '../config/display.js';

export interface ListedHook {
  event: string;
  matcher: string | null;
  name: string;
  command: string | null;
  source: string;
  file: string | null;
  enabled: boolean;
  trusted: boolean;
}

export function listHooks(engine: HookEngine): ListedHook[] {
  const held = new Set(engine.heldBack.map((h) => h.entry));
  return engine.hooks().map((e) => ({
    event: e.event,
    matcher: e.matcher ?? null,
    name: displayName(e.hook),
    command: e.hook.type === 'command' ? e.hook.command : null,
    source: e.source,
    file: e.file ?? null,
    enabled: e.enabled,
    trusted: !held.has(e),
  }));
}

/**
 * The dialect hooks found in the project folder. Like the engine for Gemini hooks, this reports
 * new or changed ones, and records them when trust is assumed.
 */
async function listDialectHooks(engine: HookEngine): Promise<ListedHook[]> {
  const { findDialectHooks } = await import('../dialects/workspace.js');
  const found = findDialectHooks(engine.projectDir);
  const { held, warning } = heldDialectHooks(engine.projectDir, found, engine.folderTrust);
  if (warning) warn(warning);
  return found.map((h) => ({ event: h.event, matcher: h.matcher ?? null, name: h.name, command: h.command, source: h.source, file: h.file, enabled: true, trusted: !held.has(h.key) }));
}

/**
 * `hooks: BeforeTool×2 AfterTool×1`, counting enabled hooks: Gemini events in catalog order,
 * then the dialects' own event names as they come.
 */
export function summary(hooks: ListedHook[]): string {
  const events = new Set<string>([...EVENT_NAMES, ...hooks.map((h) => h.event)]);
  const parts = [...events].map((ev) => [ev, hooks.filter((h) => h.event === ev && h.enabled).length] as const)
    .filter(([, n]) => n > 0)
    .map(([ev, n]) => `${ev}×${n}`);
  return `hooks: ${parts.length ? parts.join(' ') : 'none'}`;
}

export async function list(opts: { cwd?: string; json?: boolean }): Promise<void> {
  const engine = new HookEngine({ cwd: resolveDir(opts.cwd), watchConfig: false });
  for (const p of engine.problems) warn(formatProblem(p));
  reportHeld(engine);
  const hooks = [...listHooks(engine), ...(await listDialectHooks(engine))];
  if (opts.json) {
    process.stdout.write(JSON.stringify({ hooks, summary: summary(hooks) }, null, 2) + '\n');
    return;
  }
  const rows = hooks.map((h) => [h.event, h.matcher ?? '*', h.name, h.source, h.enabled ? 'enabled' : 'disabled', h.trusted ? 'trusted' : 'untrusted'].map(visible));
  const header = ['EVENT', 'MATCHER', 'NAME', 'SOURCE', 'STATE', 'TRUST'];
  const widths = header.map((_, i) => Math.max(header[i].length, ...rows.map((r) => r[i].length)));
  const fmt = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ');
  if (rows.length) process.stdout.write([fmt(header), ...rows.map(fmt)].join('\n') + '\n');
  process.stdout.write(summary(hooks) + '\n');
}
