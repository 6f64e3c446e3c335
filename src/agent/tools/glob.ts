import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ErrorType, errMsg, fail, oneLine } from './common.js';
import { isFailure, isInside, resolveInWorkspace } from './paths.js';
import { compileGlob, type Matcher } from './pattern.js';
import { defineTool } from './types.js';
import { walkFiles, type WalkEntry, type WalkStats } from './walk.js';

const MAX_SHOWN = 2000;
const DAY_MS = 24 * 60 * 60 * 1000;

const parameters = z.object({
  pattern: z.string().describe("The glob pattern to match against (e.g., '**/*.py', 'docs/*.md')."),
  dir_path: z
    .string()
    .optional()
    .describe('Optional: The path of the directory to search within. If omitted, searches the workspace root.'),
  case_sensitive: z.boolean().optional().describe('Optional: match case exactly. Defaults to false.'),
  respect_git_ignore: z
    .boolean()
    .optional()
    .describe('Optional: skip files matched by .gitignore (git repositories only). Defaults to true.'),
  respect_gemini_ignore: z.boolean().optional().describe('Optional: skip files matched by .geminiignore. Defaults to true.'),
});

/** Files changed in the last day first (newest first), then the rest by path. */
export function sortByRecency(files: WalkEntry[], now: number): WalkEntry[] {
  return [...files].sort((a, b) => {
    const ra = now - a.mtimeMs < DAY_MS;
    const rb = now - b.mtimeMs < DAY_MS;
    if (ra && rb) return b.mtimeMs - a.mtimeMs;
    if (ra !== rb) return ra ? -1 : 1;
    return a.abs.localeCompare(b.abs);
  });
}

export const glob = defineTool({
  name: 'glob',
  description:
    'Finds files whose path matches a glob pattern (e.g. `src/**/*.ts`, `**/*.md`, `*.{js,ts}`), relative to the searched directory, and returns absolute paths, ' +
    'files modified in the last day first (newest first), then the rest alphabetically. node_modules and .git are never searched; .gitignore and .geminiignore are respected by default.',
  parameters,
  kind: 'read',
  title: (a) => oneLine(`FindFiles '${a.pattern}'${a.dir_path ? ` within ${a.dir_path}` : ''}`),
  async run(a, ctx) {
    if (a.pattern.trim() === '') return fail(ErrorType.invalidParams, "The 'pattern' parameter cannot be empty.");
    const started = Date.now();
    const r = resolveInWorkspace(ctx.cwd, a.dir_path || '.');
    if (isFailure(r)) return r;
    const dir = r.path;
    try {
      if (!(await fs.stat(dir)).isDirectory()) return fail(ErrorType.invalidParams, `Search path is not a directory: ${dir}`);
    } catch {
      return fail(ErrorType.invalidParams, `Search path does not exist ${dir}`);
    }

    let pattern = a.pattern;
    if (path.isAbsolute(pattern)) {
      // an absolute pattern must point into the searched directory (as given or with symlinks resolved)
      const prefix = [dir, path.resolve(ctx.cwd, a.dir_path || '.')]
        .map((d) => (d.endsWith(path.sep) ? d : d + path.sep))
        .find((d) => pattern.startsWith(d));
      if (!prefix) {
        return fail(
          ErrorType.pathNotInWorkspace,
          `Pattern "${pattern}" is an absolute path outside the searched directory ${dir}. Use a pattern relative to it.`,
          'Path not in workspace.',
        );
      }
      pattern = pattern.slice(prefix.length);
    }
    let match: Matcher;
    try {
      // a pattern naming an existing file literally (say `app/[id].tsx`) means that file
      const literal = path.resolve(dir, pattern);
      const isLiteral =
        isInside(dir, literal) &&
        (await fs.stat(literal).then(
          (s) => s.isFile(),
          () => false,
        ));
      const exact = isLiteral ? path.relative(dir, literal).split(path.sep).join('/') : null;
      const compiled = compileGlob(pattern.startsWith('./') ? pattern.slice(2) : pattern, { nocase: !a.case_sensitive });
      match = exact ? (p) => p === exact || compiled(p) : compiled;
    } catch (err) {
      return fail(ErrorType.invalidParams, `Invalid glob pattern "${a.pattern}": ${errMsg(err)}`);
    }

    const stats: WalkStats = { ignored: 0, truncated: false };
    const found: WalkEntry[] = [];
    try {
      for await (const f of walkFiles(
        {
          root: r.root,
          start: dir,
          respectGitIgnore: a.respect_git_ignore ?? true,
          respectGeminiIgnore: a.respect_gemini_ignore ?? true,
          signal: ctx.signal,
        },
        stats,
      )) {
        if (match(f.sub)) found.push(f);
      }
    } catch (err) {
      const msg = `Error during glob search operation: ${errMsg(err)}`;
      return fail(ErrorType.globError, msg, 'Error: An unexpected error occurred.');
    }
    const note = stats.truncated ? ' (the search stopped early: too many entries; narrow it with dir_path)' : '';
    if (found.length === 0) {
      const ign = stats.ignored > 0 ? ` (${stats.ignored} files were ignored)` : '';
      return {
        llmContent: `No files found matching pattern "${a.pattern}" within ${dir}${ign}${note}`,
        returnDisplay: 'No files found',
        facts: { kind: 'files', filenames: [], truncated: stats.truncated, durationMs: Date.now() - started },
      };
    }
    const sorted = sortByRecency(found, Date.now()).map((f) => f.abs);
    const shown = sorted.slice(0, MAX_SHOWN);
    const ign = stats.ignored > 0 ? ` (${stats.ignored} additional files were ignored)` : '';
    let llm = `Found ${found.length} file(s) matching "${a.pattern}" within ${dir}${ign}${note}, sorted by modification time (newest first):\n${shown.join('\n')}`;
    if (sorted.length > shown.length) llm += `\n... and ${sorted.length - shown.length} more (narrow the pattern to see them)`;
    return {
      llmContent: llm,
      returnDisplay: `Found ${found.length} matching file(s)`,
      facts: {
        kind: 'files',
        filenames: shown,
        truncated: stats.truncated || sorted.length > shown.length,
        durationMs: Date.now() - started,
      },
    };
  },
});
