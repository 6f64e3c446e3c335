/**
 * The project files a hook command runs, for its fingerprint: trusting a command that runs
 * `hooks/guard.sh` trusts that file's content too, so changing the file holds the hook back.
 *
 * The command is split into words as the shell would (shell-quote), with the variables whose
 * value is known before it runs (the project folder, the hook's own `env`) expanded. Followed:
 * every word that names a regular file inside the project folder (or another given root), by
 * its path as written or by its real path (symlinks resolved). A word with anything computed at
 * run time (`$HOME`, `$(…)`, backticks, globs, `~`) is not followed, nor a relative path after a
 * `cd` to a place not known in advance, nor a redirection's output file, nor the text given to
 * `sh -c` / `node -e` / `python -c`. The command word of each simple command (`./hooks/x.sh`) and
 * an interpreter's script argument (`node x.mjs`, `python3 -u x.py`, `bash x.sh`) must exist when
 * they point inside the project: a missing or unreadable one fails closed, as does one reached
 * through /proc or /dev/fd; a folder in their place is followed file by file. Other words are
 * followed only when they name code (`timeout 5 ./x.sh`: a code file name, or an executable file),
 * and variables (assignments, the hook's own `env`) only when they make a program load code
 * (CODE_LOADERS: BASH_ENV, NODE_OPTIONS --require, PYTHONPATH…): a log or data file the hook
 * writes is its data, not what runs. A word naming no file yet still counts: once the file exists
 * it is in the digest, so the hook is held back.
 *
 * Each followed path is also kept as a probe (its real path and content digest, or that it is
 * missing): a long-lived engine checks the probes of a hook before it runs it (`unchanged`), so
 * an edit, a rewrite that puts the old times back, or a link pointed elsewhere holds it back.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'shell-quote';
import {
  CODE_FILE,
  CODE_LOADERS,
  FOLDER_LIST,
  interpreterFamily,
  PYTHON_MODULE,
  SUBCOMMANDS,
  type CodeLoader,
  type InterpreterFamily,
} from '../run/interpreters.js';
import { openRegularFile } from '../config/limits.js';
import { isInside } from '../config/paths.js';

export interface ScriptContext {
  /** The project folder: relative words resolve against it, and files inside it are followed. */
  projectDir: string;
  /** Other folders whose files are followed (a workspace configuration file's own folder). */
  roots?: readonly string[];
  /** Variables known before the command runs, expanded in its words. */
  vars?: Readonly<Record<string, string | undefined>>;
}

/**
 * What a path named by a command was when it was fingerprinted: its real path (null: missing) and
 * the digest of its content (a file's bytes, or a folder's code files and theirs).
 */
export interface Probe {
  path: string;
  real: string | null;
  digest?: string;
  /** A folder: the names in it that count (all, or a loader's code files). */
  folder?: RegExp | true;
}

/**
 * Files followed, by path relative to the project, with their sha256, and where those reached
 * through a link really are (a link pointed at another copy is another file); or why it cannot be
 * decided.
 */
export type ScriptDigest =
  | { ok: true; files: Record<string, string>; links: Record<string, string>; paths: string[]; probes: Probe[] }
  | { ok: false; problem: string };

const UNKNOWN = '\u0000';
// Words after which the next word is still in command position.
const PREFIXES = new Set([
  'env',
  'exec',
  'nohup',
  'command',
  'builtin',
  'time',
  'nice',
  'stdbuf',
  'then',
  'do',
  'else',
  'elif',
  'if',
  'while',
  'until',
  '!',
  '{',
  'xargs',
]);
const SEPARATORS = new Set([';', '&&', '||', '|', '&', '(', ')', '|&', ';;', '<(', '>(']);
const OUTPUT = new Set(['>', '>>', '>|', '&>', '&>>', '>&']);

function realOrNull(p: string): string | null {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return null;
  }
}

export function sha256File(file: string): string {
  const hash = crypto.createHash('sha256');
  const fd = openRegularFile(file);
  try {
    const buf = Buffer.allocUnsafe(1 << 16);
    for (let n: number; (n = fs.readSync(fd, buf, 0, buf.length, null)) > 0; ) hash.update(buf.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

interface Word {
  text: string;
  /** Must exist: a command word or an interpreter's script. */
  required: boolean;
  /** What runs (a command word, an interpreter's script): a folder there runs the files in it. */
  runs?: boolean;
  /** A plain argument: followed only when it names code. */
  plain?: boolean;
  /** A loader's folder: the names in it that are code. */
  code?: RegExp;
  /** Folder relative paths resolve against; null after a `cd` to an unknown place. */
  base: string | null;
}

type Token = ReturnType<typeof parse>[number];

/** The words of one command text that may name files. */
function wordsOf(command: string, ctx: ScriptContext): Word[] {
  const vars = ctx.vars ?? {};
  const tokens: Token[] = parse(command, (name: string) => {
    const v = name ? vars[name] : undefined;
    return v === undefined ? UNKNOWN : v;
  });
  const out: Word[] = [];
  let atStart = true;
  let afterPrefix = false;
  let interp: InterpreterFamily | null = null;
  let deno = false;
  let skip = false;
  let optionValue: boolean | 'module' | 'loads' = false;
  let cdFrom: string | null | undefined;
  // `source x` and `. x` run x in the shell itself.
  let sourced = false;
  let base: string | null = ctx.projectDir;
  const scriptLike = (t: string) => t.includes('/') || /\.[A-Za-z0-9]+$/.test(t);
  for (const t of tokens) {
    if (typeof t !== 'string') {
      if ('op' in t) {
        if (t.op === 'glob') {
          // A glob is decided at run time: never followed; it still takes a word's place.
          atStart = false;
          skip = false;
        } else if (SEPARATORS.has(t.op)) {
          atStart = true;
          interp = null;
          sourced = false;
          optionValue = false;
          cdFrom = undefined;
        } else if (OUTPUT.has(t.op)) skip = true;
      }
      continue;
    }
    if (skip) {
      skip = false;
      continue;
    }
    if (atStart) {
      // `A=1 ./x.sh`, `env -i node x.mjs`, `then ./x.sh`: the command word is still to come.
      if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(t)) {
        // `BASH_ENV=./pre.sh bash …`: what an assignment makes a program load is followed.
        const eq = t.indexOf('=');
        out.push(...loaderWords(t.slice(0, eq), t.slice(eq + 1), base));
        continue;
      }
      if (afterPrefix && t.startsWith('-')) continue;
      if (PREFIXES.has(t)) {
        afterPrefix = true;
        continue;
      }
      atStart = false;
      afterPrefix = false;
      const name = path.basename(t);
      interp = interpreterFamily(name) ?? null;
      deno = SUBCOMMANDS.test(name);
      // A word without a `/` is looked up on PATH (or is a builtin such as `.`): a folder of that name does not run.
      out.push({ text: t, required: t.includes('/'), runs: t.includes('/'), base });
      sourced = t === 'source' || t === '.';
      if (t === 'cd' || t === 'pushd') {
        // Where a relative path points after a `cd` is known only when its folder is.
        cdFrom = base;
        base = null;
      }
      continue;
    }
    if (cdFrom !== undefined) {
      if (t.startsWith('-')) continue;
      base = t.includes(UNKNOWN) || t.startsWith('~') ? null : path.isAbsolute(t) ? t : cdFrom === null ? null : path.resolve(cdFrom, t);
      cdFrom = undefined;
      continue;
    }
    if (interp) {
      if (deno && t === 'run') continue;
      // `python3 -m tools.guard`: the module's files where the interpreter looks first (the
      // working folder), if they are there (it may be an installed one: not required).
      if (optionValue === 'module') {
        optionValue = false;
        interp = null;
        out.push(...moduleWords(t, base));
        continue;
      }
      if (interp.module?.has(t)) {
        optionValue = 'module';
        continue;
      }
      // `python3 -um x`, `-mx`, `-uc '…'`: short options run together, a value joined on.
      if (interp.clusters && /^-[A-Za-z]/.test(t) && !t.startsWith('--')) {
        for (let i = 1; i < t.length; i++) {
          const opt = `-${t[i]}`;
          const rest = t.slice(i + 1);
          if (interp?.module?.has(opt)) {
            if (rest) {
              out.push(...moduleWords(rest, base));
              interp = null;
            } else optionValue = 'module';
            break;
          }
          if (interp?.inline.has(opt)) {
            interp = null;
            break;
          }
          if (interp?.value.has(opt)) {
            if (!rest) optionValue = true;
            break;
          }
        }
        continue;
      }
      // `sh -c '…'`, `node -e '…'`: the code is not parsed; the words after it are plain words.
      if (interp.inline.has(t)) {
        interp = null;
        continue;
      }
      if (optionValue) {
        out.push(...(optionValue === 'loads' ? preloadWords(t, base) : [{ text: t, required: false, base }]));
        optionValue = false;
        continue;
      }
      if (interp.value.has(t)) optionValue = interp.loads?.has(t) ? 'loads' : true;
      // `--require=./pre.cjs`: the value of an option written as one word.
      const eq = t.startsWith('--') ? t.indexOf('=') : -1;
      if (eq > 0 && interp.value.has(t.slice(0, eq)))
        out.push(
          ...(interp.loads?.has(t.slice(0, eq)) ? preloadWords(t.slice(eq + 1), base) : [{ text: t.slice(eq + 1), required: false, base }]),
        );
      if (t.startsWith('-')) continue;
      interp = null;
      out.push({ text: t, required: scriptLike(t), runs: true, base });
      continue;
    }
    if (t === UNKNOWN) continue;
    if (sourced) {
      sourced = false;
      out.push({ text: t, required: false, runs: true, base });
      continue;
    }
    out.push({ text: t, required: false, plain: true, base });
  }
  return out;
}

/**
 * The files `python3 -m a.b` may run from the folder it starts in: `a/b.py` or the package `a/b/`
 * (its files), and the `__init__.py` of each package on the way. None for a name that is not a
 * module's.
 */
function moduleWords(name: string, base: string | null): Word[] {
  if (!PYTHON_MODULE.test(name)) return [];
  const parts = name.split('.');
  const file = parts.join('/');
  const word = (text: string, runs: boolean): Word => ({ text, required: false, runs, base });
  return [
    word(`${file}.py`, true),
    word(file, true),
    ...parts.slice(0, -1).map((_, i) => word(`${parts.slice(0, i + 1).join('/')}/__init__.py`, false)),
  ];
}

/**
 * The files `node -r ./pre` may load: the path as written, with each extension Node tries, or the
 * folder (its files). A bare name (`-r dotenv/config`) is a package, found as imports are: not followed.
 */
function preloadWords(value: string, base: string | null): Word[] {
  if (!/^\.{0,2}\//.test(value)) return [];
  return ['', '.js', '.cjs', '.mjs', '.json', '.node'].map((ext) => ({ text: `${value}${ext}`, required: false, runs: ext === '', base }));
}

/** The words of what a variable makes a program load (none for a variable that loads nothing). */
function loaderWords(name: string, value: string, base: string | null): Word[] {
  const loader: CodeLoader | undefined = Object.hasOwn(CODE_LOADERS, name) ? CODE_LOADERS[name] : undefined;
  if (!loader || !value) return [];
  const word = (text: string, code?: RegExp): Word => ({ text, required: false, runs: true, base, ...(code ? { code } : {}) });
  switch (loader.kind) {
    case 'path':
      return [word(value)];
    case 'files':
      return value
        .split(loader.separator)
        .filter(Boolean)
        .map((v) => word(v));
    case 'folders':
      return value
        .split(FOLDER_LIST)
        .filter(Boolean)
        .map((v) => word(v, loader.code));
    case 'options': {
      const out: Word[] = [];
      const parts = value.split(/\s+/).filter(Boolean);
      for (let i = 0; i < parts.length; i++) {
        const p = parts[i]!;
        for (const o of loader.options) {
          // `--require x`, `--require=x`, `-rx`, `-javaagent:x.jar=opts`
          if (p === o && !o.endsWith(':')) out.push(word(parts[++i] ?? '', loader.code));
          else if (p.startsWith(`${o}=`) && o.startsWith('--')) out.push(word(p.slice(o.length + 1), loader.code));
          else if (p.startsWith(o) && p.length > o.length && !o.startsWith('--'))
            out.push(word(o.endsWith(':') ? p.slice(o.length).split('=')[0]! : p.slice(o.length), loader.code));
          else continue;
          break;
        }
      }
      return out;
    }
  }
}

function describe(file: string, projectDir: string): string {
  const rel = path.relative(projectDir, file);
  return rel && !rel.startsWith('..') ? rel : file;
}

/** Files in a folder a hook runs, at most this many: past that it cannot be fingerprinted. */
const MAX_FOLDER_FILES = 1000;

/** The regular files under a folder (only the code files a loader reads from it), sorted; or why they cannot be listed. */
function folderFiles(dir: string, code?: RegExp): string[] | string {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { recursive: true, withFileTypes: true });
  } catch (e) {
    return `cannot list the folder (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
  }
  // Links are followed as the interpreter follows them: a linked file is hashed by its content.
  const files = entries
    .map((e) => ({ e, file: path.join(e.parentPath ?? e.path, e.name) }))
    .filter(({ file }) => !code || code.test(file))
    .filter(({ e, file }) => e.isFile() || (e.isSymbolicLink() && fs.statSync(file, { throwIfNoEntry: false })?.isFile()))
    .map(({ file }) => file);
  if (files.length > MAX_FOLDER_FILES) return `a folder of more than ${MAX_FOLDER_FILES} files is run: too many to fingerprint`;
  return files.sort();
}

/** One digest of a folder's files: their names and contents. */
function folderDigest(dir: string, files: readonly string[], hashes: readonly string[]): string {
  const h = crypto.createHash('sha256');
  files.forEach((f, i) => h.update(`${path.relative(dir, f)}\0${hashes[i]}\0`));
  return h.digest('hex');
}

/** A plain argument is followed when it names code: a code file name, or an executable file. */
const namesCode = (text: string, st: fs.Stats) => CODE_FILE.test(text) || (st.isFile() && (st.mode & 0o111) !== 0);

/** The content digest of the project files a command runs (see the module comment for the rule). */
export function scriptDigest(command: string, ctx: ScriptContext): ScriptDigest {
  const rootsLexical = [ctx.projectDir, ...(ctx.roots ?? [])].map((r) => path.resolve(r));
  const roots = [...new Set([...rootsLexical, ...rootsLexical.map((r) => realOrNull(r)).filter((r): r is string => r !== null)])];
  const inside = (p: string) => roots.some((r) => isInside(r, p));
  let words: Word[];
  try {
    words = wordsOf(command, ctx);
    // shell-quote does not split at newlines: each line is read on its own as well.
    // Those words are never required (a heredoc's lines are data); a file that appears later still
    // changes the digest, since every existing file a word names is in it.
    if (command.includes('\n'))
      for (const line of command.split('\n')) words.push(...wordsOf(line, ctx).map((w) => ({ ...w, required: false })));
  } catch (e) {
    return { ok: false, problem: `cannot read the command's words (${(e as Error).message})` };
  }
  // What the hook's own variables make a program load (BASH_ENV, NODE_OPTIONS --require…) is followed too.
  for (const [name, v] of Object.entries(ctx.vars ?? {})) if (v) words.push(...loaderWords(name, v, ctx.projectDir));
  const files: Record<string, string> = {};
  const links: Record<string, string> = {};
  const paths = new Set<string>();
  const probes = new Map<string, Probe>();
  const realProject = realOrNull(ctx.projectDir) ?? path.resolve(ctx.projectDir);
  for (const w of words) {
    if (!w.text || w.text.includes(UNKNOWN) || w.text.startsWith('~')) continue;
    if (!path.isAbsolute(w.text) && w.base === null) continue;
    const abs = path.isAbsolute(w.text) ? path.normalize(w.text) : path.resolve(w.base!, w.text);
    // /proc/self/cwd/… and /dev/fd/… (however spelled) name what the hook's process has, not what Hookline sees.
    if (/^\/(?:proc|dev\/fd)(?:\/|$)/.test(abs)) {
      if (w.required || w.runs)
        return { ok: false, problem: `${w.text} is reached through /proc or /dev/fd: which file runs is known only when it runs` };
      continue;
    }
    const real = realOrNull(abs);
    if (!inside(abs) && !(real && inside(real))) continue;
    const label = describe(abs, ctx.projectDir);
    if (!real) {
      if (w.required) return { ok: false, problem: `${label} is missing` };
      // Once it exists it is followed: a long-lived engine notices it appearing.
      if (!w.plain || CODE_FILE.test(w.text)) probes.set(abs, { path: abs, real: null });
      continue;
    }
    let st: fs.Stats;
    try {
      st = fs.statSync(real);
    } catch (e) {
      return { ok: false, problem: `cannot read ${label}: ${(e as Error).message}` };
    }
    if (w.plain && !namesCode(w.text, st)) continue;
    // A folder run as a program or a script (`node ./hook`, `python3 ./pkg`) runs the files in it.
    const found = st.isFile() ? [real] : st.isDirectory() && w.runs ? folderFiles(real, w.code) : [];
    if (typeof found === 'string') return { ok: false, problem: `${label}: ${found}` };
    const hashes: string[] = [];
    for (const f of found) {
      const name = (f === real ? label : path.join(label, path.relative(real, f))).split(path.sep).join('/');
      try {
        files[name] = sha256File(f);
      } catch (e) {
        return { ok: false, problem: `cannot read ${name}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
      }
      hashes.push(files[name]);
      const where = (isInside(realProject, f) ? path.relative(realProject, f) : f).split(path.sep).join('/');
      if (where !== name) links[name] = where;
      paths.add(f);
    }
    if (st.isFile()) probes.set(abs, { path: abs, real, digest: hashes[0] });
    else if (st.isDirectory() && w.runs)
      probes.set(abs, { path: abs, real, folder: w.code ?? true, digest: folderDigest(real, found, hashes) });
  }
  return { ok: true, files, links, paths: [...paths], probes: [...probes.values()] };
}

/** What a probe's path is now, in the terms it was taken in. */
function probeNow(p: Probe): Probe | undefined {
  // A missing path is told without an exception, the common case for a word naming nothing.
  if (!fs.statSync(p.path, { throwIfNoEntry: false })) return { path: p.path, real: null };
  const real = realOrNull(p.path);
  if (real === null || real !== p.real) return { path: p.path, real };
  try {
    if (!p.folder) return { path: p.path, real, digest: sha256File(real) };
    const found = folderFiles(real, p.folder === true ? undefined : p.folder);
    if (typeof found === 'string') return undefined;
    return { path: p.path, real, folder: p.folder, digest: folderDigest(real, found, found.map(sha256File)) };
  } catch {
    return undefined;
  }
}

/**
 * True when every probe finds what was fingerprinted: the same real path (every folder and link
 * on the way) and the same bytes. Whatever cannot be read now is a change: it fails closed.
 */
export function unchanged(probes: readonly Probe[]): boolean {
  for (const p of probes) {
    const now = probeNow(p);
    if (!now || now.real !== p.real || now.digest !== p.digest) return false;
  }
  return true;
}

/** A stamp of files' change times and sizes: it changes when any of them is edited or removed. */
export function filesStamp(files: readonly string[]): string {
  return files
    .map((f) => {
      try {
        const st = fs.statSync(f, { throwIfNoEntry: false });
        if (!st) return 'missing';
        return `${st.mtimeMs}:${st.ctimeMs}:${st.size}:${st.ino}`;
      } catch {
        return 'missing';
      }
    })
    .join('|');
}
