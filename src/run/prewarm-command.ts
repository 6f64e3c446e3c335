/**
 * Which hook commands a pre-warmed interpreter can run exactly as `bash -c` would: one simple
 * command `node <script> [args…]`, `python3 <script> [args…]` or `python3 -m <module> [args…]`,
 * every word a literal. Anything the shell would compute or reroute (variables, `$(…)`, globs,
 * `~`, braces, redirections, pipes, `&&`, `;`, comments, environment assignments) is refused, and
 * so is any interpreter option but those that only set how the interpreter runs from its start
 * (`python3 -u`, `node --no-warnings`: the waiting interpreter starts with them, as the cold one
 * would) and Node's CommonJS preloads (`-r dotenv/config`), which the waiting interpreter loads
 * at the event, as the cold one loads them before its script. Inline code (`-e`, `-c`), ES module
 * preloads and loaders (`--import`, `--loader`), which set themselves up as the interpreter
 * starts, and launchers that find their program only when they run (`npx`, `tsx`) are not.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'shell-quote';
import { PYTHON_MODULE } from './interpreters.js';

export type InterpreterKind = 'node' | 'python';

export type WarmCommand =
  | {
      ok: true;
      kind: InterpreterKind;
      /** The interpreter word as written (`node`, `/usr/bin/python3`): the shell finds it on PATH as for a cold run. */
      interpreter: string;
      /** Its options as written, before the script (`-u`): the waiting interpreter starts with them. */
      options: string[];
      /** Node's preloads as written (`-r`, `x`): loaded at the event, and in `process.execArgv` after the options. */
      preloads: string[];
      /**
       * The script as written, then its arguments: what the hook sees as its argv after the
       * interpreter. A Python module run with `-m` is `-m`, the module, then its arguments.
       */
      argv: string[];
    }
  | { ok: false; reason: string };

const NODE = /^(?:node|nodejs)$/;
const PYTHON = /^python(?:[23](?:\.\d+)?)?$/;
/**
 * Options that only set how the interpreter runs, read once at its start and the same whether
 * it starts ahead or at the event. Each is one word.
 */
const START_OPTIONS: Record<InterpreterKind, RegExp> = {
  python: /^-(?:[uBsEO]|OO)$/,
  node: /^--(?:no-warnings|no-deprecation|enable-source-maps|trace-warnings|trace-uncaught|trace-deprecation|unhandled-rejections=(?:strict|warn|none|throw|warn-with-error-code)|max-old-space-size=\d+|stack-trace-limit=\d+)$/,
};

/** Characters that mean nothing to bash outside quotes (besides word separation). */
const PLAIN = /[A-Za-z0-9_\-./:=@%+,]/;

/**
 * Checks, character by character, that bash would see only literal words: outside quotes only
 * plain characters, blanks and `\x` escapes; inside double quotes nothing that expands. Returns
 * why not, or undefined.
 */
export function nonLiteral(command: string): string | undefined {
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '$' || c === '`' || c === '\\') return `"${c}" inside double quotes`;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '\\') {
      if (i + 1 >= command.length || command[i + 1] === '\n') return 'a trailing backslash';
      i++;
    } else if (c !== ' ' && c !== '\t' && !PLAIN.test(c)) return `"${c === '\n' ? '\\n' : c}" outside quotes`;
  }
  return quote ? 'an unterminated quote' : undefined;
}

/** Node's CommonJS preload, as one word (`--require=x`) or two (`-r x`, `--require x`), as Node takes it. */
const PRELOAD = /^(?:-r|--require|--require=.+)$/;

/** Programs that find what they run only when they run (a package to fetch, a compiler's loader): why each cannot wait ahead. */
const LAUNCHERS: Array<[RegExp, string]> = [
  [
    /^(?:npx|bunx|pnpx)$/,
    'finds (or fetches) the program to run only when it runs, so what it would run cannot be started ahead of the event',
  ],
  [
    /^(?:tsx|ts-node|ts-node-esm)$/,
    'compiles TypeScript through module loader hooks it installs as it starts, which a waiting interpreter would have installed before the event',
  ],
];

/** Why an interpreter option cannot be started ahead of the event, for those whose reason is known. */
function optionReason(kind: InterpreterKind, word: string): string {
  if (kind === 'node' && /^(?:-e|-p|--eval|--print)(?:=|$)/.test(word)) return `inline code (${word}): no script to start ahead of`;
  if (kind === 'python' && word === '-c') return 'inline code (-c): no script to start ahead of';
  if (kind === 'node' && /^--(?:import|loader|experimental-loader)(?:=|$)/.test(word))
    return `an ES module preload or loader (${word.split('=')[0]}) sets itself up as the interpreter starts, which for a waiting interpreter is before the event`;
  return `interpreter option "${word}": a waiting interpreter can start only with options that set how it runs, and CommonJS preloads`;
}

const known = new Map<string, WarmCommand>();

/** The command's words, when it is one interpreter running one script; else why not (read once per command text). */
export function warmCommand(command: string): WarmCommand {
  let c = known.get(command);
  if (c) return c;
  c = readWarmCommand(command);
  // A host that makes up commands does not grow this without end.
  if (known.size >= 512) known.clear();
  known.set(command, c);
  return c;
}

function readWarmCommand(command: string): WarmCommand {
  const bad = nonLiteral(command);
  if (bad) return { ok: false, reason: `not a simple command of literal words (${bad})` };
  const words = parse(command);
  if (!words.every((w): w is string => typeof w === 'string')) return { ok: false, reason: 'not a simple command' };
  const [interpreter, ...rest] = words;
  if (interpreter === undefined) return { ok: false, reason: 'empty command' };
  if (interpreter.includes('=')) return { ok: false, reason: 'an environment assignment before the command' };
  const name = path.basename(interpreter);
  const launcher = LAUNCHERS.find(([re]) => re.test(name));
  if (launcher) return { ok: false, reason: `${name} ${launcher[1]}` };
  const kind: InterpreterKind | undefined = NODE.test(name) ? 'node' : PYTHON.test(name) ? 'python' : undefined;
  if (!kind) return { ok: false, reason: `"${interpreter}" is not node or python` };
  const options: string[] = [];
  const preloads: string[] = [];
  let at = 0;
  for (; at < rest.length; at++) {
    const word = rest[at]!;
    // Start options before any preload only: the waiting interpreter's own come first in execArgv.
    if (START_OPTIONS[kind].test(word) && !preloads.length) options.push(word);
    else if (kind === 'node' && PRELOAD.test(word)) {
      // The module named in the same word, or the next.
      if (word.includes('=')) preloads.push(word);
      else if (at + 1 < rest.length) preloads.push(word, rest[++at]!);
      else return { ok: false, reason: `"${word}" names no module` };
    } else break;
  }
  const [script, ...args] = rest.slice(at);
  if (script === undefined) return { ok: false, reason: 'no script file' };
  if (kind === 'python' && script === '-m') {
    const [module, ...margs] = args;
    if (!module || !PYTHON_MODULE.test(module)) return { ok: false, reason: '"-m" names no module' };
    return { ok: true, kind, interpreter, options, preloads, argv: ['-m', module, ...margs] };
  }
  if (script.startsWith('-')) return { ok: false, reason: optionReason(kind, script) };
  if (kind === 'node' && (script === 'inspect' || script === 'debug')) return { ok: false, reason: `"node ${script}" is a debugger` };
  return { ok: true, kind, interpreter, options, preloads, argv: [script, ...args] };
}

/** NODE_OPTIONS words that load code or open a debugger at start-up: before the event in a waiting interpreter. */
const NODE_OPTIONS_AT_START =
  /(?:^|\s)(?:-r|--require|--import|--loader|--experimental-loader|--inspect(?:-brk|-wait)?(?:=\S*)?)(?:[\s=]|$)/;

/** Why the hook's environment makes a waiting interpreter start differently from a cold one, if it does. */
export function envProblem(kind: InterpreterKind, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const options = env.NODE_OPTIONS;
  if (kind === 'node' && options && NODE_OPTIONS_AT_START.test(options))
    return 'NODE_OPTIONS preloads code or opens a debugger, which would happen before the event';
  return undefined;
}

/**
 * Whether the script is a file the warm loader runs as the interpreter would: a regular file
 * (Python runs a folder's or a zip's `__main__`; Node resolves extensions), not compiled code.
 */
export function scriptProblem(kind: InterpreterKind, script: string, cwd: string): string | undefined {
  // A module is found when it runs, on the path, as `python3 -m` finds it.
  if (kind === 'python' && script === '-m') return undefined;
  const file = path.resolve(cwd, script);
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch {
    return `script ${script} not found`;
  }
  if (!st.isFile()) return `script ${script} is not a regular file`;
  if (kind === 'python' && /\.(?:pyc|pyo|pyz|zip)$/i.test(script)) return `script ${script} is compiled or zipped`;
  if (kind === 'node' && /\.(?:[cm]?ts|node|json)$/i.test(script)) return `script ${script} is not JavaScript`;
  return undefined;
}
