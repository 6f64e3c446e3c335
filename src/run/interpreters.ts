/**
 * Interpreters whose first non-option word is a script file: how to tell the script from inline
 * code and from an option's value, and how to check that one starts. Read by the trust layer
 * (which files a hook runs) and by `hookline doctor` (will the script be found).
 */
export interface InterpreterFamily {
  names: RegExp;
  /** Options after which there is no script file: the code is given inline. */
  inline: ReadonlySet<string>;
  /** Options that take the next word as their value. */
  value: ReadonlySet<string>;
  /** Options after which the next word is a module to run (`python3 -m x`): found on a path, not named as a file. */
  module?: ReadonlySet<string>;
  /** Options whose value is code loaded before the script (`node -r ./pre.cjs`), resolved as the interpreter resolves it. */
  loads?: ReadonlySet<string>;
  /** Short options may be run together, a value joined on (`python3 -um x`, `-mx`). */
  clusters?: boolean;
}

export const INTERPRETER_FAMILIES: readonly InterpreterFamily[] = [
  { names: /^(bash|sh|dash|zsh|ksh|mksh|fish)$/, inline: new Set(['-c']), value: new Set(['-o', '-O', '--rcfile', '--init-file']) },
  {
    names: /^(node|nodejs|tsx|ts-node|bun|deno)$/,
    inline: new Set(['-e', '--eval', '-p', '--print']),
    // An --env-file may set NODE_OPTIONS (a preload): the file is followed as code is.
    value: new Set(['-r', '--require', '--import', '--loader', '--experimental-loader', '-C', '--conditions', '--env-file']),
    loads: new Set(['-r', '--require', '--import', '--loader', '--experimental-loader']),
  },
  {
    names: /^(python[0-9.]*|pypy[0-9.]*)$/,
    inline: new Set(['-c', '-m']),
    value: new Set(['-W', '-X']),
    module: new Set(['-m']),
    clusters: true,
  },
  { names: /^(ruby|perl|lua|luajit|Rscript|osascript)$/, inline: new Set(['-e', '-E']), value: new Set(['-r', '-I']) },
  { names: /^php$/, inline: new Set(['-r']), value: new Set(['-c', '-d']) },
  { names: /^pwsh$/, inline: new Set(['-c', '-Command', '-command']), value: new Set([]) },
];

/** A module `python3 -m` can run: dotted identifiers. */
export const PYTHON_MODULE = /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$/;

/** The family of a command word (`/usr/bin/python3.12` is a python), if it is an interpreter. */
export function interpreterFamily(word: string): InterpreterFamily | undefined {
  const name = word.slice(word.lastIndexOf('/') + 1);
  return INTERPRETER_FAMILIES.find((f) => f.names.test(name));
}

/** Interpreters whose first word may be a subcommand: `deno run x.ts`, `bun run x.ts`, `deno eval '…'`. */
export const SUBCOMMANDS = /^(deno|bun)$/;

/**
 * The script that `word args…` runs, when `word` is an interpreter: the first word that is
 * neither an option nor an option's value; none when the code is inline.
 */
export function scriptArgument(word: string, args: readonly string[]): string | undefined {
  const family = interpreterFamily(word);
  if (!family) return undefined;
  const sub = SUBCOMMANDS.test(word.slice(word.lastIndexOf('/') + 1));
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (family.inline.has(a) || (sub && i === 0 && a === 'eval')) return undefined;
    if (family.value.has(a)) i++;
    else if (sub && i === 0 && a === 'run') continue;
    else if (!a.startsWith('-')) return a;
  }
  return undefined;
}

/** What runs an interpreter doing nothing, by program name: `node -e 0`. */
export const PROBES: Readonly<Record<string, readonly string[]>> = {
  node: ['-e', '0'],
  python: ['-c', '0'],
  python3: ['-c', '0'],
  bash: ['-c', 'exit 0'],
  sh: ['-c', 'exit 0'],
  zsh: ['-c', 'exit 0'],
  ruby: ['-e', '0'],
  perl: ['-e', '0'],
  deno: ['eval', '0'],
  bun: ['-e', '0'],
};

/**
 * How a variable makes a program load code by itself: its whole value is a file (`path`), a list
 * of files (`files`), a list of folders whose code is loaded by name (`folders`, with the names
 * that count as code), or options whose values are files (`options`).
 */
export type CodeLoader =
  | { kind: 'path' }
  | { kind: 'files'; separator: RegExp }
  | { kind: 'folders'; code: RegExp }
  | { kind: 'options'; options: readonly string[]; code?: RegExp };

const PATH_LIST = /:/;
const SO = /\.(so(\.\d+)*|dylib)$/;

/**
 * The variables that make a program load code: the trust layer follows the files these name into
 * a hook's fingerprint, and only these. Any other variable naming a file (a log, a data file the
 * hook writes) is the hook's data: its value is fingerprinted as text, its content is not.
 */
export const CODE_LOADERS: Readonly<Record<string, CodeLoader>> = {
  BASH_ENV: { kind: 'path' },
  ENV: { kind: 'path' },
  PYTHONSTARTUP: { kind: 'path' },
  ZDOTDIR: { kind: 'folders', code: /(^|\/)\.z(shenv|profile|shrc|login)$/ },
  NODE_OPTIONS: { kind: 'options', options: ['-r', '--require', '--import', '--loader', '--experimental-loader'] },
  NODE_PATH: { kind: 'folders', code: /\.(c|m)?js$|\.node$/ },
  PYTHONPATH: { kind: 'folders', code: /\.(py|pyc|pth)$|\.so$/ },
  PYTHONHOME: { kind: 'folders', code: /\.(py|pyc|pth)$|\.so$/ },
  PYTHONUSERBASE: { kind: 'folders', code: /\.(py|pyc|pth)$|\.so$/ },
  PERL5OPT: { kind: 'options', options: ['-I'], code: /\.p[ml]$/ },
  PERL5LIB: { kind: 'folders', code: /\.p[ml]$/ },
  PERLLIB: { kind: 'folders', code: /\.p[ml]$/ },
  RUBYOPT: { kind: 'options', options: ['-r', '-I'], code: /\.rb$|\.so$/ },
  RUBYLIB: { kind: 'folders', code: /\.rb$|\.so$/ },
  LD_PRELOAD: { kind: 'files', separator: /[:\s]+/ },
  LD_LIBRARY_PATH: { kind: 'folders', code: SO },
  LD_AUDIT: { kind: 'files', separator: /:/ },
  DYLD_INSERT_LIBRARIES: { kind: 'files', separator: /:/ },
  DYLD_LIBRARY_PATH: { kind: 'folders', code: SO },
  JAVA_TOOL_OPTIONS: { kind: 'options', options: ['-javaagent:'] },
  JDK_JAVA_OPTIONS: { kind: 'options', options: ['-javaagent:'] },
  _JAVA_OPTIONS: { kind: 'options', options: ['-javaagent:'] },
};

/** The list separator of a folder list. */
export const FOLDER_LIST = PATH_LIST;

/** File names that are code, whatever runs them: a plain argument naming one is followed (`timeout 5 ./x.sh`). */
export const CODE_FILE =
  /\.(sh|bash|zsh|ksh|fish|js|mjs|cjs|jsx|ts|mts|cts|tsx|py|pyw|pyc|rb|pl|pm|php|lua|tcl|r|jl|go|java|kts?|groovy|swift|scala|exs?|clj|ps1|psm1|bat|cmd|nu|wasm|so|dylib|jar)$/i;
