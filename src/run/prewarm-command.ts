/**
 * Which hook commands a pre-warmed interpreter can run exactly as `bash -c` would: one simple
 * command `node <script> [args…]` or `python3 <script> [args…]`, every word a literal. Anything
 * the shell would compute or reroute (variables, `$(…)`, globs, `~`, braces, redirections, pipes,
 * `&&`, `;`, comments, environment assignments) is refused, and so is any interpreter option
 * but those that only set how the interpreter runs from its start (`python3 -u`, `node
 * --no-warnings`): the waiting interpreter starts with them, as the cold one would. Inline code
 * (`-e`, `-c`, `-m`) and preloads (`-r`, `--import`), which would run before the event, are not.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'shell-quote';

export type InterpreterKind = 'node' | 'python';

export type WarmCommand =
  | {
      ok: true;
      kind: InterpreterKind;
      /** The interpreter word as written (`node`, `/usr/bin/python3`): the shell finds it on PATH as for a cold run. */
      interpreter: string;
      /** Its options as written, before the script (`-u`): the waiting interpreter starts with them. */
      options: string[];
      /** The script as written, then its arguments: what the hook sees as its argv after the interpreter. */
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
  const kind: InterpreterKind | undefined = NODE.test(name) ? 'node' : PYTHON.test(name) ? 'python' : undefined;
  if (!kind) return { ok: false, reason: `"${interpreter}" is not node or python` };
  let at = 0;
  while (at < rest.length && START_OPTIONS[kind].test(rest[at])) at++;
  const options = rest.slice(0, at);
  const [script, ...args] = rest.slice(at);
  if (script === undefined) return { ok: false, reason: 'no script file' };
  if (script.startsWith('-')) return { ok: false, reason: `interpreter option "${script}"` };
  if (kind === 'node' && (script === 'inspect' || script === 'debug')) return { ok: false, reason: `"node ${script}" is a debugger` };
  return { ok: true, kind, interpreter, options, argv: [script, ...args] };
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
