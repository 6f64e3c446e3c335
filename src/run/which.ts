/**
 * Will a hook command start? Read without running it: its first simple command split as the
 * shell would (shell-quote), the program found on PATH or as a file, an interpreter's script
 * file, and the variables it names that the hook's environment will not have. And whether an
 * interpreter starts at all, run without a shell (`node -e 0`, `python3 -c 0`).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'shell-quote';
import { interpreterFamily, PROBES, scriptArgument } from './interpreters.js';
import { openRegularFile } from '../config/limits.js';

/** Shell builtins and keywords: never looked up on PATH. */
const BUILTINS = new Set(
  'cd echo exit true false test [ printf export set unset source . exec eval read shift trap wait if then else fi for while do done case esac { ( ! : command type'.split(
    ' ',
  ),
);

export interface CommandCheck {
  problems: string[];
  /** The interpreter it starts, when it is one Hookline can probe (`node`, `python3`…), with its path. */
  interpreter?: { name: string; path: string };
}

/** The file `name` resolves to on PATH, or undefined. */
export function which(name: string, pathVar: string | undefined): string | undefined {
  for (const dir of (pathVar ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const f = path.join(dir, name);
    try {
      if (fs.statSync(f).isFile()) {
        fs.accessSync(f, fs.constants.X_OK);
        return f;
      }
    } catch {
      // not here
    }
  }
  return undefined;
}

const UNSET = '\u0000unset\u0000';
/** The value of a variable that will be set when the hook runs but is not known before (a session id). */
export const AT_RUN_TIME = '\u0000run-time\u0000';
const unknowable = (w: string) => w.includes(UNSET) || w.includes(AT_RUN_TIME);

/**
 * Problems that would stop `command` from starting: `cwd` is where it runs, `vars` the
 * environment it gets (a variable not in it does not expand).
 */
export function checkCommand(command: string, opts: { cwd: string; vars: Readonly<Record<string, string | undefined>> }): CommandCheck {
  const problems: string[] = [];
  const missing = new Set<string>();
  const words: string[] = [];
  for (const t of parse(command, (name: string) => {
    const v = opts.vars[name];
    if (v === undefined && !/^[0-9@*#?$!-]$/.test(name)) missing.add(name);
    return v ?? UNSET;
  })) {
    // Up to the first operator (`&&`, `|`, `;`…): the first simple command.
    if (typeof t !== 'string') {
      if (words.length) break;
      continue;
    }
    words.push(t);
  }
  for (const name of missing) problems.push(`variable $${name} will not expand: it is not set in the hook's environment`);
  while (words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0])) words.shift();
  const [program, ...args] = words;
  if (program === undefined || unknowable(program) || BUILTINS.has(program)) return { problems };
  let found: string | undefined;
  if (program.includes('/')) {
    const file = path.resolve(opts.cwd, program);
    if (!fs.existsSync(file)) problems.push(`${program}: no such file (from ${opts.cwd})`);
    else {
      try {
        fs.accessSync(file, fs.constants.X_OK);
        found = file;
        const bad = shebangProblem(file, program);
        if (bad) problems.push(bad);
      } catch {
        problems.push(`${program}: not executable — run: chmod +x ${program}, or start it through its interpreter (bash ${program})`);
      }
    }
  } else {
    found = which(program, opts.vars.PATH);
    if (!found) problems.push(`${program}: command not found on PATH`);
  }
  const base = path.basename(program).replace(/^(python3)\.\d+$/, '$1');
  if (!interpreterFamily(base)) return { problems };
  const script = scriptArgument(base, args);
  if (script !== undefined && !unknowable(script)) {
    const file = path.resolve(opts.cwd, script);
    if (!fs.existsSync(file)) problems.push(`${script}: script not found (from ${opts.cwd})`);
    else if (!fs.statSync(file).isFile()) problems.push(`${script}: not a file`);
  }
  return { problems, ...(found ? { interpreter: { name: base, path: found } } : {}) };
}

/**
 * The interpreter a script's `#!` line names (its first word, a carriage return kept), or
 * undefined (no `#!` line, or not a regular file: the path may come from a hook's own stderr).
 */
export function shebangOf(file: string): string | undefined {
  try {
    const head = Buffer.alloc(256);
    const fd = openRegularFile(file);
    let n: number;
    try {
      n = fs.readSync(fd, head, 0, head.length, 0);
    } finally {
      fs.closeSync(fd);
    }
    const line = head.subarray(0, n).toString('utf8').split('\n')[0];
    return line.startsWith('#!')
      ? line
          .slice(2)
          .replace(/^[ \t]+/, '')
          .split(/[ \t]+/)[0] || undefined
      : undefined;
  } catch {
    return undefined;
  }
}

/** What keeps a script's `#!` line from starting it, if anything: Windows line endings, an interpreter that is not there. */
export function shebangProblem(file: string, shown = file): string | undefined {
  const first = shebangOf(file);
  if (first === undefined) return undefined;
  if (first.endsWith('\r'))
    return `${shown}: has Windows line endings, so its #! line names "${first.slice(0, -1)}\\r", which does not exist — convert it: sed -i 's/\\r$//' ${shown}`;
  if (first.startsWith('/') && !fs.existsSync(first))
    return `${shown}: its #! line names ${first}, which does not exist — install it, or change the #! line`;
  return undefined;
}

/** Whether an interpreter starts: run without a shell, with the probe that does nothing; the problem if not. */
export function probeInterpreter(i: { name: string; path: string }, env: NodeJS.ProcessEnv): string | undefined {
  const probe = PROBES[i.name];
  if (!probe) return undefined;
  const r = spawnSync(i.path, [...probe], { env, stdio: ['ignore', 'ignore', 'pipe'], timeout: 20_000, shell: false });
  if (r.error) return `${i.path} ${probe.join(' ')}: did not start (${(r.error as NodeJS.ErrnoException).code ?? r.error.message})`;
  if (r.status !== 0) {
    const err = r.stderr?.toString().trim().split('\n')[0] ?? '';
    return `${i.path} ${probe.join(' ')}: exit ${r.status ?? r.signal}${err ? `: ${err}` : ''}`;
  }
  return undefined;
}
