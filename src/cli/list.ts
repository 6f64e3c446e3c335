import { HookEngine } from '../engine.js';
import { displayName } from '../config/schema.js';
import { formatProblem } from '../config/problems.js';
import { EVENT_NAMES } from '../events/names.js';
import { resolveDir, warn } from './io.js';
import { reportHeld } from './trust.js';

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

/** `hooks: BeforeTool×2 AfterTool×1`, in catalog order, counting enabled hooks. */
export function summary(hooks: ListedHook[]): string {
  const parts = EVENT_NAMES.map((ev) => [ev, hooks.filter((h) => h.event === ev && h.enabled).length] as const)
    .filter(([, n]) => n > 0)
    .map(([ev, n]) => `${ev}×${n}`);
  return `hooks: ${parts.length ? parts.join(' ') : 'none'}`;
}

export function list(opts: { cwd?: string; json?: boolean }): void {
  const engine = new HookEngine({ cwd: resolveDir(opts.cwd), watchConfig: false });
  for (const p of engine.problems) warn(formatProblem(p));
  reportHeld(engine);
  const hooks = listHooks(engine);
  if (opts.json) {
    process.stdout.write(JSON.stringify({ hooks, summary: summary(hooks) }, null, 2) + '\n');
    return;
  }
  const rows = hooks.map((h) => [h.event, h.matcher ?? '*', h.name, h.source, h.enabled ? 'enabled' : 'disabled', h.trusted ? 'trusted' : 'untrusted']);
  const header = ['EVENT', 'MATCHER', 'NAME', 'SOURCE', 'STATE', 'TRUST'];
  const widths = header.map((_, i) => Math.max(header[i].length, ...rows.map((r) => r[i].length)));
  const fmt = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ');
  if (rows.length) process.stdout.write([fmt(header), ...rows.map(fmt)].join('\n') + '\n');
  process.stdout.write(summary(hooks) + '\n');
}
