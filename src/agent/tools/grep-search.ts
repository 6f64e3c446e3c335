import fs from 'node:fs/promises';
import path from 'node:path';
import { RE2JS } from 're2js';
import { z } from 'zod';
import { decodeText, ErrorType, errMsg, fail, looksBinary, oneLine } from './common.js';
import { isFailure, resolveInWorkspace } from './paths.js';
import { compileGlob, type Matcher } from './pattern.js';
import { MAX_LINE_LENGTH } from './read-file.js';
import { defineTool } from './types.js';
import { ALWAYS_SKIPPED, BUILD_DIRS, walkFiles, type WalkEntry, type WalkStats } from './walk.js';

export const DEFAULT_TOTAL_MAX_MATCHES = 100;
const SEARCH_TIMEOUT_MS = 30_000;
const MAX_FILE_BYTES = 2 * 1024 * 1024;

const parameters = z.object({
  pattern: z
    .string()
    .describe("The regular expression (RE2 syntax) to search for within file contents, e.g. 'function\\s+myFunction' or '\\bMatchMe\\b'."),
  dir_path: z
    .string()
    .optional()
    .describe(
      "Directory or file to search. Directories are searched recursively. Relative paths are resolved against the workspace root. Defaults to '.'.",
    ),
  include_pattern: z
    .string()
    .optional()
    .describe("Glob pattern to filter files (e.g. '*.ts', '*.{ts,tsx}', 'src/**'). Defaults to all files."),
  exclude_pattern: z
    .string()
    .optional()
    .describe('Optional: A regular expression; lines matching both `pattern` and `exclude_pattern` are left out.'),
  names_only: z
    .boolean()
    .optional()
    .describe('Optional: If true, only the paths of files with matches are returned, without line content or numbers.'),
  case_sensitive: z.boolean().optional().describe('If true, the search is case-sensitive. Defaults to false (ignore case).'),
  fixed_strings: z.boolean().optional().describe('If true, `pattern` is a literal string, not a regular expression. Defaults to false.'),
  context: z.number().int().min(0).optional().describe('Show this many lines of context around each match (like grep -C). Defaults to 0.'),
  after: z.number().int().min(0).optional().describe('Show this many lines after each match (like grep -A). Defaults to 0.'),
  before: z.number().int().min(0).optional().describe('Show this many lines before each match (like grep -B). Defaults to 0.'),
  no_ignore: z
    .boolean()
    .optional()
    .describe('If true, also search files that are normally skipped (.gitignore, build/, dist/, *.log, ...). Defaults to false.'),
  max_matches_per_file: z.number().int().min(1).optional().describe('Optional: Maximum number of matches to return per file.'),
  total_max_matches: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`Optional: Maximum number of matches to return in total. Defaults to ${DEFAULT_TOTAL_MAX_MATCHES}.`),
});

type Args = z.infer<typeof parameters>;

interface Line {
  file: string;
  n: number;
  text: string;
  isContext: boolean;
}

/** Compiles a user regex with RE2 (linear time, so no pattern can hang the agent). */
function compile(pattern: string, caseSensitive: boolean): RE2JS {
  return RE2JS.compile(pattern, caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
}

/** The matching lines of one file plus the requested context, capped by the match budget. */
function searchLines(
  lines: string[],
  file: string,
  re: RE2JS,
  exclude: RE2JS | null,
  before: number,
  after: number,
  perFile: number,
  budget: number,
): { out: Line[]; matches: number } {
  const hits: number[] = [];
  for (let i = 0; i < lines.length && hits.length < Math.min(perFile, budget); i++) {
    if (re.test(lines[i]) && !exclude?.test(lines[i])) hits.push(i);
  }
  if (hits.length === 0) return { out: [], matches: 0 };
  const hitSet = new Set(hits);
  const shown = new Set<number>();
  for (const h of hits) for (let i = Math.max(0, h - before); i <= Math.min(lines.length - 1, h + after); i++) shown.add(i);
  const out = [...shown].sort((x, y) => x - y).map((i) => ({ file, n: i + 1, text: lines[i], isContext: !hitSet.has(i) }));
  return { out, matches: hits.length };
}

function cut(line: string): string {
  const t = line.trimEnd();
  const chars = Array.from(t);
  return chars.length > MAX_LINE_LENGTH ? chars.slice(0, MAX_LINE_LENGTH).join('') + '... [truncated]' : t;
}

function format(a: Args, found: Line[], matchCount: number, where: string, limit: number): { llmContent: string; returnDisplay: string } {
  const filter = a.include_pattern ? ` (filter: "${a.include_pattern}")` : '';
  if (matchCount === 0)
    return { llmContent: `No matches found for pattern "${a.pattern}" ${where}${filter}.`, returnDisplay: 'No matches found' };
  const limited = matchCount >= limit;
  const files = [...new Set(found.map((l) => l.file))];
  if (a.names_only) {
    const sorted = [...files].sort();
    const lim = limited ? ` (results limited to ${limit} matches for performance)` : '';
    return {
      llmContent: `Found ${sorted.length} files with matches for pattern "${a.pattern}" ${where}${filter}${lim}:\n${sorted.join('\n')}`,
      returnDisplay: `Found ${sorted.length} files${limited ? ' (limited)' : ''}`,
    };
  }
  const term = matchCount === 1 ? 'match' : 'matches';
  let llm = `Found ${matchCount} ${term} for pattern "${a.pattern}" ${where}${filter}`;
  if (limited) llm += ` (results limited to ${limit} matches for performance)`;
  llm += ':\n---\n';
  for (const f of files) {
    llm += `File: ${f}\n`;
    for (const l of found) if (l.file === f) llm += `L${l.n}${l.isContext ? '-' : ':'} ${cut(l.text)}\n`;
    llm += '---\n';
  }
  return { llmContent: llm.trim(), returnDisplay: `Found ${matchCount} ${term}${limited ? ' (limited)' : ''}` };
}

export const grepSearch = defineTool({
  name: 'search_file_content',
  description:
    'Searches file contents for a regular expression (RE2 syntax: no backreferences or lookaround) and returns matching lines with their file and line number, ' +
    `case-insensitive unless case_sensitive is true. Max ${DEFAULT_TOTAL_MAX_MATCHES} matches unless total_max_matches says otherwise. ` +
    'node_modules, .git, build output folders and ignored files are skipped unless no_ignore is true.',
  parameters,
  kind: 'read',
  title: (a) => oneLine(`SearchText '${a.pattern}'${a.include_pattern ? ` in ${a.include_pattern}` : ''} within ${a.dir_path || './'}`),
  async run(a, ctx) {
    const started = Date.now();
    let re: RE2JS;
    let exclude: RE2JS | null = null;
    try {
      re = compile(a.fixed_strings ? RE2JS.quote(a.pattern) : a.pattern, a.case_sensitive ?? false);
    } catch (err) {
      return fail(ErrorType.invalidParams, `Invalid regular expression pattern provided: ${a.pattern}. Error: ${errMsg(err)}`);
    }
    if (a.exclude_pattern) {
      try {
        exclude = compile(a.exclude_pattern, a.case_sensitive ?? false);
      } catch (err) {
        return fail(
          ErrorType.invalidParams,
          `Invalid exclude regular expression pattern provided: ${a.exclude_pattern}. Error: ${errMsg(err)}`,
        );
      }
    }
    let include: Matcher | null = null;
    if (a.include_pattern) {
      try {
        // like ripgrep's --glob: a pattern without '/' matches the file name at any depth
        const g = a.include_pattern.startsWith('./') ? a.include_pattern.slice(2) : a.include_pattern;
        include = compileGlob(g.includes('/') ? g : `**/${g}`);
      } catch (err) {
        return fail(ErrorType.invalidParams, `Invalid include_pattern "${a.include_pattern}": ${errMsg(err)}`);
      }
    }

    const where = `in path "${a.dir_path || '.'}"`;
    const r = resolveInWorkspace(ctx.cwd, a.dir_path || '.');
    if (isFailure(r)) return { ...r, returnDisplay: 'Error: Path not in workspace.' };
    let isFile: boolean;
    try {
      const st = await fs.stat(r.path);
      if (!st.isDirectory() && !st.isFile())
        return fail(
          ErrorType.grepError,
          `Path is not a valid directory or file: ${r.path}`,
          'Error: Path is not a valid directory or file.',
        );
      isFile = st.isFile();
    } catch {
      return fail(ErrorType.fileNotFound, `Path does not exist: ${r.path}`, 'Error: Path does not exist.');
    }

    const limit = a.total_max_matches ?? DEFAULT_TOTAL_MAX_MATCHES;
    const perFile = a.max_matches_per_file ?? Infinity;
    const asked = a.context !== undefined || a.before !== undefined || a.after !== undefined;
    const before = a.before ?? a.context ?? 0;
    const after = a.after ?? a.context ?? 0;
    const deadline = Date.now() + SEARCH_TIMEOUT_MS;
    const found: Line[] = [];
    const fileLines = new Map<string, string[]>();
    let matchCount = 0;

    const searchOne = async (f: WalkEntry): Promise<void> => {
      if (f.size > MAX_FILE_BYTES) return;
      let buf: Buffer;
      try {
        buf = await fs.readFile(f.abs);
      } catch {
        return;
      }
      if (looksBinary(buf)) return;
      const lines = decodeText(buf).split(/\r?\n/);
      if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop(); // no phantom line after the final newline
      const label = isFile ? path.basename(f.abs) : f.sub;
      const { out, matches } = searchLines(lines, label, re, exclude, before, after, perFile, limit - matchCount);
      if (matches === 0) return;
      matchCount += matches;
      found.push(...out);
      // only the auto-context below (1-3 matches) needs whole files, so do not hold on to more
      if (matchCount <= 3) fileLines.set(label, lines);
      else fileLines.clear();
    };

    try {
      if (isFile) {
        const st = await fs.stat(r.path);
        await searchOne({ abs: r.path, rel: r.rel, sub: path.basename(r.path), size: st.size, mtimeMs: st.mtimeMs });
      } else {
        const stats: WalkStats = { ignored: 0, truncated: false };
        const ignore = !a.no_ignore;
        const walk = walkFiles(
          {
            root: r.root,
            start: r.path,
            skipDirs: ignore ? [...ALWAYS_SKIPPED, ...BUILD_DIRS] : ALWAYS_SKIPPED,
            respectGitIgnore: ignore,
            respectGeminiIgnore: ignore,
            signal: ctx.signal,
          },
          stats,
        );
        for await (const f of walk) {
          if (ctx.signal.aborted) break;
          if (Date.now() > deadline) {
            throw new Error(
              `Operation timed out after ${SEARCH_TIMEOUT_MS}ms. In large repositories, consider narrowing your search scope by specifying a 'dir_path' or an 'include_pattern'.`,
            );
          }
          if (ignore && /\.(log|tmp)$/i.test(f.sub)) continue;
          if (include && !include(f.sub)) continue;
          await searchOne(f);
          if (matchCount >= limit) break;
        }
      }
    } catch (err) {
      const msg = errMsg(err);
      return fail(ErrorType.grepError, msg, `Error: ${msg}`, `Error during grep search operation: ${msg}`);
    }

    // With 1-3 matches and no context asked for, add surrounding lines so the model can skip a read_file turn.
    let lines = found;
    if (!asked && !a.names_only && matchCount >= 1 && matchCount <= 3) {
      const around = matchCount === 1 ? 50 : 15;
      lines = [];
      for (const [label, all] of fileLines) {
        const hits = found.filter((l) => l.file === label && !l.isContext).map((l) => l.n - 1);
        const hitSet = new Set(hits);
        const shown = new Set<number>();
        for (const h of hits) for (let i = Math.max(0, h - around); i < Math.min(all.length, h + around + 1); i++) shown.add(i);
        for (const i of [...shown].sort((x, y) => x - y)) lines.push({ file: label, n: i + 1, text: all[i], isContext: !hitSet.has(i) });
      }
    }
    const abs = (label: string) => (isFile ? r.path : path.join(r.path, label));
    return {
      ...format(a, lines, matchCount, where, limit),
      facts: {
        kind: 'search',
        filenames: [...new Set(found.map((l) => abs(l.file)))],
        lines: a.names_only ? [] : lines.map((l) => ({ file: abs(l.file), line: l.n, text: l.text, isContext: l.isContext })),
        matches: matchCount,
        namesOnly: a.names_only === true,
        durationMs: Date.now() - started,
      },
    };
  },
});
