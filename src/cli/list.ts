import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { summary } from '../dialects/list.js';
import { listHooks } from '../dialects/listing.js';
import { resolveDir, warn, print, printJson } from './io.js';
import { visible } from '../config/display.js';
import { reviewLines } from '../trust/review.js';
import { installLines, installStatus } from '../relay/status.js';
import { installedEntries } from '../relay/installs.js';

/**
 * Which hooks are entries of Hookline's own install: exactly a command or URL the install wrote
 * into that file, by the install's record (which a project cannot write). Anything else that looks
 * like one is listed as the hook it is. Each file's record is read once.
 */
export function ownEntries(cwd: string): (h: { command: string | null; name: string; file: string | null }) => boolean {
  const written = new Map<string, Set<string>>();
  return (h) => {
    if (h.file === null) return false;
    const file = path.resolve(cwd, h.file);
    let entries = written.get(file);
    if (!entries) written.set(file, (entries = installedEntries(file, process.env)));
    return h.command !== null ? entries.has(h.command) : entries.has(h.name.replace(/^http: /, ''));
  };
}

/** Every configured hook: Gemini settings hooks with their state, then the other systems' workspace hooks. */
export async function list(opts: { cwd?: string; json?: boolean }): Promise<void> {
  const cwd = resolveDir(opts.cwd);
  const listed = await listHooks(cwd);
  for (const w of listed.warnings) warn(w);
  const installs = installStatus(cwd);
  // Hookline's own entries in an agent's settings are not the user's hooks: the install lines say them.
  const own = ownEntries(cwd);
  const hooks = listed.hooks.filter((h) => !own(h));
  if (opts.json) {
    printJson({ hooks, summary: summary(hooks), installs });
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
  const above = projectAbove(cwd);
  if (above)
    print(
      visible(
        `note: ${above.dir} has project hook settings (${above.file}); they are read from the folder an agent starts in — run there, or add --cwd ${above.dir}`,
      ),
    );
  for (const l of installLines(installs)) print(visible(l.line));
}

/** The project files each agent reads from the folder it starts in. */
const PROJECT_FILES = ['.gemini/settings.json', '.claude/settings.json', '.claude/settings.local.json', '.codex/hooks.json'];

/**
 * A folder above `cwd` with project hook settings, when `cwd` has none: listing from a subfolder
 * finds none of them, as the agents would not either, and that is said.
 */
function projectAbove(cwd: string): { dir: string; file: string } | undefined {
  const has = (dir: string) => PROJECT_FILES.find((f) => fs.existsSync(path.join(dir, f)));
  if (has(cwd)) return undefined;
  const home = os.homedir();
  for (let dir = path.dirname(cwd); dir !== path.dirname(dir) && dir !== home; dir = path.dirname(dir)) {
    const file = has(dir);
    if (file) return { dir, file };
  }
  return undefined;
}
