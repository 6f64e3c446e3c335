/**
 * What an approval prompt tells `Notification` hooks about a tool call (`details`, `message`), in
 * Gemini CLI's shapes: a shell command is `exec` ("Confirm Shell Command"), a write or an edit is
 * `edit` with the file's diff ("Confirm Write: <path>", "Confirm Edit: <path>"), anything else is
 * `info` with what the call is about ("Confirm: ReadFile", prompt `a.txt`).
 */
import path from 'node:path';
import { unifiedDiff } from './diff.js';
import type { AgentTool, EditPreview } from './types.js';

/** Gemini CLI's display names of the tools, as its confirmation titles show them. */
const DISPLAY_NAMES: Record<string, string> = {
  read_file: 'ReadFile',
  list_directory: 'ReadFolder',
  glob: 'FindFiles',
  search_file_content: 'SearchText',
  grep_search: 'SearchText',
};

/** A path relative to the project folder, as Gemini CLI shows it (`.` for the folder itself). */
export function relativeTo(cwd: string, p: string): string {
  if (!path.isAbsolute(p)) return p;
  return path.relative(path.resolve(cwd), p) || '.';
}

/**
 * A path at most `max` characters long, as Gemini CLI shortens the paths in its titles: kept
 * whole when it fits; else its first folder, `...`, and as many of its last parts as fit, the
 * first folder and the middle parts cut down before the file name is; a name alone is cut in the
 * middle.
 */
export function shortenPath(p: string, max = 35): string {
  if (p.length <= max) return p;
  const middle = () => {
    const keep = Math.floor((max - 3) / 2);
    return keep <= 0 ? `${p.slice(0, max - 3)}...` : `${p.slice(0, keep)}...${p.slice(p.length - keep)}`;
  };
  const { root } = path.parse(p);
  const sep = path.sep;
  const parts = p
    .slice(root.length)
    .split(sep)
    .filter((s) => s !== '');
  if (parts.length <= 1) return middle();
  const first = parts[0];
  const last = parts[parts.length - 1];
  // The trailing parts that fit beside the first folder and the ellipsis, the file name always.
  const tail = [last];
  let tailLength = last.length;
  for (let i = parts.length - 2; i > 0; i--) {
    const candidate = root.length + first.length + sep.length * 3 + 3 + tailLength + parts[i].length;
    if (candidate > max) break;
    tail.unshift(parts[i]);
    tailLength += sep.length + parts[i].length;
  }
  const fallback = () => {
    for (const form of [`...${sep}${last}`, ...(root ? [`${root}...${sep}${last}`, `${root}${last}`] : []), last])
      if (form.length <= max) return form;
    return middle();
  };
  const pieces = [first, ...tail];
  const room = max - (root.length + (tail.length + 1) * sep.length + 3);
  if (room <= 0) return fallback();
  // Each piece's least length: one character for the first and the middle ones, the file name whole.
  const least = pieces.map((c, i) => (i === pieces.length - 1 ? c.length : Math.min(c.length, 1)));
  if (room < least.reduce((a, b) => a + b, 0)) return fallback();
  const budget = pieces.map((c) => c.length);
  let total = budget.reduce((a, b) => a + b, 0);
  while (total > room) {
    // Cut the longest piece that may still shrink, the file name last.
    let pick = -1;
    for (let i = 0; i < budget.length; i++) {
      if (budget[i] <= least[i]) continue;
      const better = pick === -1 || (i < budget.length - 1 && (pick === budget.length - 1 || budget[i] > budget[pick]));
      if (better) pick = i;
    }
    if (pick === -1) return fallback();
    budget[pick]--;
    total--;
  }
  const cut = (c: string, n: number, where: 'start' | 'center' | 'end'): string => {
    if (c.length <= n) return c;
    if (n <= 0) return '';
    if (n <= 3) return where === 'end' ? c.slice(-n) : c.slice(0, n);
    if (where === 'start') return `${c.slice(0, n - 3)}...`;
    if (where === 'end') return `...${c.slice(c.length - (n - 3))}`;
    const front = Math.ceil((n - 3) / 2);
    return `${c.slice(0, front)}...${c.slice(c.length - (n - 3 - front))}`;
  };
  const shown = pieces.map((c, i) => cut(c, budget[i], i === 0 ? 'start' : i === pieces.length - 1 ? 'end' : 'center'));
  const out = `${root}${shown[0]}${sep}...${sep}${shown.slice(1).join(sep)}`;
  return out.length > max ? fallback() : out;
}

/** What a search or listing call is about, as Gemini CLI describes it. */
function describe(t: AgentTool, args: Record<string, unknown>, cwd: string): string {
  const dir = typeof args.dir_path === 'string' ? args.dir_path : undefined;
  const within = (d: string | undefined, always: boolean) => {
    if (d === undefined && !always) return '';
    const resolved = path.resolve(cwd, d ?? '.');
    return resolved === path.resolve(cwd) || d === '.' ? ' within ./' : ` within ${shortenPath(relativeTo(cwd, resolved))}`;
  };
  switch (t.name) {
    case 'read_file':
      return shortenPath(relativeTo(cwd, path.resolve(cwd, String(args.file_path ?? ''))));
    case 'list_directory':
      return shortenPath(relativeTo(cwd, path.resolve(cwd, dir ?? '.')));
    case 'glob':
      return `'${String(args.pattern ?? '')}'${within(dir, false)}`;
    case 'search_file_content': {
      const include = typeof args.include === 'string' && args.include ? ` in ${args.include}` : '';
      return `'${String(args.pattern ?? '')}'${include}${within(dir, true)}`;
    }
    default:
      return t.title(args as never);
  }
}

export interface Confirmation {
  details: Record<string, unknown>;
  /** The notification's `message`. */
  message: string;
}

/** Gemini CLI's approval prompt for a call: its Notification `details` and `message`. */
export function confirmation(t: AgentTool, args: Record<string, unknown>, cwd: string, preview: EditPreview | undefined): Confirmation {
  if (t.name === 'run_shell_command') {
    const command = String(args.command ?? '');
    const title = 'Confirm Shell Command';
    return {
      details: { type: 'exec', title, command, rootCommand: command.trim().split(/\s+/)[0] },
      message: `Tool ${title} requires execution`,
    };
  }
  if (t.kind === 'edit') {
    const file = path.resolve(cwd, String(args.file_path ?? ''));
    const title = `${t.name === 'write_file' ? 'Confirm Write' : 'Confirm Edit'}: ${shortenPath(relativeTo(cwd, file))}`;
    const fileName = path.basename(file);
    const details: Record<string, unknown> = { type: 'edit', title, fileName, filePath: preview?.filePath ?? file };
    if (preview) {
      // A file that does not exist yet is empty to a write, absent to an edit.
      const original = preview.originalContent ?? (t.name === 'write_file' ? '' : null);
      details.fileDiff = unifiedDiff(fileName, original ?? '', preview.newContent, 'Current', 'Proposed');
      details.originalContent = original;
      details.newContent = preview.newContent;
    }
    return { details, message: `Tool ${title} requires editing` };
  }
  const title = `Confirm: ${DISPLAY_NAMES[t.name] ?? t.name}`;
  return { details: { type: 'info', title, prompt: describe(t, args, cwd) }, message: `Tool ${title} requires information` };
}
