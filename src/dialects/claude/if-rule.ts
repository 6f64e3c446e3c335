/**
 * A Claude Code handler's `if` filter, in permission-rule syntax: `Tool` or `Tool(specifier)`,
 * several joined with `||`. It is tested on tool events only (elsewhere the hook never runs).
 *
 * - `Bash(git *)`: the command, split into its simple commands (`&&`, `||`, `;`, `|`, and the
 *   contents of `$(…)` and backticks), each without its leading `VAR=value` words, matches the
 *   pattern (`*` is any text; `prefix:*` is the older "starts with" form); a command that cannot
 *   be split runs the hook, as in Claude Code: the filter is best-effort, never a guard.
 * - `Read(./src/**)`, `Edit(*.ts)`, `Write(//etc/*)`: the tool's file path matches the glob
 *   (picomatch; `//x` absolute, `~/x` the home folder, `/x` the project folder, else the working
 *   folder; a pattern without `/` matches a file name at any depth).
 * - `WebFetch(domain:example.com)`: the URL's host.
 * - `mcp__server` or `mcp__server__tool`: the tool's name.
 */
import os from 'node:os';
import path from 'node:path';
import picomatch from 'picomatch';
import { parse } from 'shell-quote';

export interface IfRule {
  /** The rule as written. */
  text: string;
  test(toolName: string, toolInput: Record<string, unknown>, where: { cwd: string; projectDir: string }): boolean;
}

/** The events an `if` filter applies to; on any other it keeps the hook from running. */
export const IF_EVENTS: ReadonlySet<string> = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'PermissionDenied',
]);

const FILE_TOOLS = new Set(['Read', 'Edit', 'Write', 'MultiEdit', 'NotebookEdit', 'NotebookRead', 'Glob', 'Grep', 'LS']);
const RULE = /^([A-Za-z_][A-Za-z0-9_-]*)(?:\((.*)\))?$/s;

/** Splits `A || B` at the top level (not inside a rule's parentheses). */
function alternatives(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && c === '|' && text[i + 1] === '|') {
      out.push(text.slice(start, i));
      start = i + 2;
      i++;
    }
  }
  out.push(text.slice(start));
  return out.map((s) => s.trim());
}

/** Compiles an `if` filter, or says why it cannot be read. */
export function compileIfRule(text: string): { ok: true; rule: IfRule } | { ok: false; message: string } {
  const parts = alternatives(text);
  const tests: Array<IfRule['test']> = [];
  for (const part of parts) {
    const m = RULE.exec(part);
    if (!m) return { ok: false, message: `"${part}" is not a permission rule (expected Tool or Tool(pattern), e.g. "Bash(git *)")` };
    const [, tool, spec] = m;
    if (spec === undefined || spec === '' || spec === '*') {
      tests.push((name) => name === tool || (tool.startsWith('mcp__') && name.startsWith(`${tool}__`)));
      continue;
    }
    if (tool === 'Bash') {
      const match = commandPattern(spec);
      tests.push((name, input) => name === 'Bash' && bashMatches(String(input.command ?? ''), match));
    } else if (FILE_TOOLS.has(tool)) {
      tests.push((name, input, where) => name === tool && fileMatches(spec, input, where));
    } else if (tool === 'WebFetch' && spec.startsWith('domain:')) {
      const domain = spec.slice('domain:'.length).toLowerCase();
      tests.push((name, input) => name === 'WebFetch' && hostOf(input.url) === domain);
    } else {
      return {
        ok: false,
        message: `"${part}": Hookline reads a pattern in parentheses for Bash, file tools (Read, Edit, Write…) and WebFetch(domain:…) only`,
      };
    }
  }
  return { ok: true, rule: { text, test: (n, i, w) => tests.some((t) => t(n, i, w)) } };
}

function hostOf(url: unknown): string | undefined {
  try {
    return typeof url === 'string' ? new URL(url).hostname.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/** A Bash pattern as a test of one simple command's text. */
function commandPattern(spec: string): (command: string) => boolean {
  if (spec.endsWith(':*')) {
    const prefix = spec.slice(0, -2);
    return (c) => c === prefix || c.startsWith(`${prefix} `);
  }
  const re = new RegExp(
    `^${spec
      .split('*')
      .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    's',
  );
  // `git *` also matches a bare `git`, as `git:*` does.
  const bare = spec.endsWith(' *') ? spec.slice(0, -2) : undefined;
  return (c) => re.test(c) || c === bare;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const SEPARATORS = new Set(['&&', '||', ';', '|', '&', ';;', '|&', '(', ')']);

/** The simple commands of a command line, without leading assignments; undefined when it cannot be read. */
export function simpleCommands(command: string): string[] | undefined {
  if (!balanced(command)) return undefined;
  const out: string[] = [];
  // The contents of `$(…)` and backticks are commands too.
  for (const m of command.matchAll(/\$\(([^()]*)\)|`([^`]*)`/g)) {
    const inner = simpleCommands(m[1] ?? m[2] ?? '');
    if (!inner) return undefined;
    out.push(...inner);
  }
  let tokens: ReturnType<typeof parse>;
  try {
    // Variables are kept as written: the pattern is matched on what the user sees.
    tokens = parse(command, (key) => `$${key}`);
  } catch {
    return undefined;
  }
  let words: string[] = [];
  const flush = () => {
    while (words.length && ASSIGNMENT.test(words[0])) words.shift();
    if (words.length) out.push(words.join(' '));
    words = [];
  };
  for (const t of tokens) {
    if (typeof t === 'string') words.push(t);
    else if ('op' in t) {
      if (SEPARATORS.has(t.op)) flush();
      else if (t.op === 'glob') words.push((t as { pattern: string }).pattern);
      // Redirections and the like end nothing: the command goes on.
    } else if ('comment' in t) break;
  }
  flush();
  return out;
}

/** Whether quotes, `$(…)` and backticks are closed (shell-quote reads an open quote to the end). */
function balanced(command: string): boolean {
  let quote: string | undefined;
  let depth = 0;
  let tick = false;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      continue;
    }
    if (c === '\\') {
      i++;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '`') tick = !tick;
      else if (c === '$' && command[i + 1] === '(') {
        depth++;
        i++;
      } else if (c === ')' && depth > 0) depth--;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '`') tick = !tick;
    else if (c === '$' && command[i + 1] === '(') {
      depth++;
      i++;
    } else if (c === ')' && depth > 0) depth--;
  }
  return quote === undefined && depth === 0 && !tick;
}

function bashMatches(command: string, match: (c: string) => boolean): boolean {
  const commands = simpleCommands(command);
  if (!commands) return true;
  return commands.some(match);
}

function filePathOf(input: Record<string, unknown>): string | undefined {
  for (const k of ['file_path', 'notebook_path', 'path']) if (typeof input[k] === 'string' && input[k]) return input[k] as string;
  return undefined;
}

function fileMatches(spec: string, input: Record<string, unknown>, where: { cwd: string; projectDir: string }): boolean {
  const file = filePathOf(input);
  if (!file) return false;
  const abs = path.resolve(where.cwd, file);
  let base: string;
  let pattern: string;
  if (spec.startsWith('//')) {
    base = '/';
    pattern = spec.slice(2);
  } else if (spec.startsWith('~/')) {
    base = os.homedir();
    pattern = spec.slice(2);
  } else if (spec.startsWith('/')) {
    base = where.projectDir;
    pattern = spec.slice(1);
  } else {
    base = where.cwd;
    pattern = spec.startsWith('./') ? spec.slice(2) : spec;
  }
  const rel = path.relative(base, abs);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return false;
  // As in .gitignore: a pattern with no `/` matches the name at any depth.
  let match = matchers.get(pattern);
  if (!match) {
    const anyDepth = !pattern.includes('/');
    matchers.set(pattern, (match = picomatch(pattern, { dot: true, ...(anyDepth ? { basename: true } : {}) })));
  }
  return match(rel);
}

/** Compiled path patterns of `if` rules, by pattern: a rule is tested on every matching tool call. */
const matchers = new Map<string, (rel: string) => boolean>();
