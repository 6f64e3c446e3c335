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
 * through /proc or /dev/fd; a folder in their place is followed file by file. Files named by a
 * variable assignment or by the hook's own variables are followed too. A word naming no file
 * yet still counts: once the file exists it is in the digest, so the hook is held back.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'shell-quote';
import { interpreterFamily, SUBCOMMANDS, type InterpreterFamily } from '../run/interpreters.js';
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

/** Files followed, by path relative to the project, with their sha256; or why it cannot be decided. */
export type ScriptDigest = { ok: true; files: Record<string, string>; paths: string[] } | { ok: false; problem: string };

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
    return fs.realpathSync(p);
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
  let optionValue = false;
  let cdFrom: string | null | undefined;
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
        // `BASH_ENV=./pre.sh bash …`: a file an assignment names is followed as any word is.
        out.push({ text: t.slice(t.indexOf('=') + 1), required: false, base });
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
      out.push({ text: t, required: t.includes('/'), runs: true, base });
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
      // `sh -c '…'`, `node -e '…'`: the code is not parsed; the words after it are plain words.
      if (interp.inline.has(t)) {
        interp = null;
        continue;
      }
      if (optionValue) {
        optionValue = false;
        out.push({ text: t, required: false, base });
        continue;
      }
      if (interp.value.has(t)) optionValue = true;
      if (t.startsWith('-')) continue;
      interp = null;
      out.push({ text: t, required: scriptLike(t), runs: true, base });
      continue;
    }
    out.push({ text: t, required: false, base });
  }
  return out;
}

function describe(file: string, projectDir: string): string {
  const rel = path.relative(projectDir, file);
  return rel && !rel.startsWith('..') ? rel : file;
}

/** Files in a folder a hook runs, at most this many: past that it cannot be fingerprinted. */
const MAX_FOLDER_FILES = 1000;

/** The regular files under a folder (links not followed), sorted; or why they cannot be listed. */
function folderFiles(dir: string): string[] | string {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { recursive: true, withFileTypes: true });
  } catch (e) {
    return `cannot list the folder (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
  }
  // Links are followed as the interpreter follows them: a linked file is hashed by its content.
  const files = entries
    .map((e) => ({ e, file: path.join(e.parentPath ?? e.path, e.name) }))
    .filter(({ e, file }) => e.isFile() || (e.isSymbolicLink() && fs.statSync(file, { throwIfNoEntry: false })?.isFile()))
    .map(({ file }) => file);
  if (files.length > MAX_FOLDER_FILES) return `a folder of more than ${MAX_FOLDER_FILES} files is run: too many to fingerprint`;
  return files.sort();
}

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
  // A file the hook's own variables name (BASH_ENV, a config file) is read by what runs: followed too.
  for (const v of Object.values(ctx.vars ?? {})) if (v) words.push({ text: v, required: false, base: ctx.projectDir });
  const files: Record<string, string> = {};
  const paths = new Set<string>();
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
      continue;
    }
    let st: fs.Stats;
    try {
      st = fs.statSync(real);
    } catch (e) {
      return { ok: false, problem: `cannot read ${label}: ${(e as Error).message}` };
    }
    // A folder run as a program or a script (`node ./hook`, `python3 ./pkg`) runs the files in it.
    const found = st.isFile() ? [real] : st.isDirectory() && w.runs ? folderFiles(real) : [];
    if (typeof found === 'string') return { ok: false, problem: `${label}: ${found}` };
    for (const f of found) {
      const name = (f === real ? label : path.join(label, path.relative(real, f))).split(path.sep).join('/');
      try {
        files[name] = sha256File(f);
      } catch (e) {
        return { ok: false, problem: `cannot read ${name}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
      }
      paths.add(f);
    }
  }
  return { ok: true, files, paths: [...paths] };
}

/** A stamp of files' change times and sizes: it changes when any of them is edited or removed. */
export function filesStamp(files: readonly string[]): string {
  return files
    .map((f) => {
      try {
        const st = fs.statSync(f, { throwIfNoEntry: false });
        if (!st) return 'missing';
        return `${st.mtimeMs}:${st.size}:${st.ino}`;
      } catch {
        return 'missing';
      }
    })
    .join('|');
}
