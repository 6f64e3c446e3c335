/**
 * `$GEMINI_PROJECT_DIR` and friends (and their `${…}` form) are replaced in the command text
 * before the shell sees it.
 * The value is written for the quoting context it lands in (bare, '…', "…", $'…'), tracked
 * through `$(…)` and backticks, so a path with spaces or quotes is one literal word. Whatever
 * the context, an unusual value only ever appears as `$'…'` with `\xHH` escapes: if the
 * tracking is wrong (heredocs, `case` inside `$(…)`), the value may come out wrong but can
 * never run as code. The reference escapes for the bare context only, which breaks inside
 * double quotes and lets `"$(dirname "$GEMINI_PROJECT_DIR")"` execute parts of the path.
 *
 * Arithmetic is the exception: bash decodes `$'…'` there and evaluates array subscripts, so
 * `$(( $GEMINI_SESSION_ID ))` with the id `a[$(cmd)]` runs `cmd` however it is quoted. In every
 * arithmetic context (`$((…))`, `$[…]`, `((…))`, `let`, `declare -i`, array subscripts,
 * `${x:offset}`, the operands of `[[ … -eq … ]]`, the keys of `a=([…]=…)`) only a whole number is
 * substituted; any other value throws an ExpansionError and the hook does not run.
 *
 * So are the places where bash reads a value as a variable name, and evaluates a subscript in it
 * (`[[ -v X ]]`, `test -v X`, `printf -v X`, the names given to `declare`, `local`, `export`,
 * `read`, `unset`, `mapfile`, `kill`, `jobs`, `wait`, `declare -n`, and `${!X}`), or as code
 * (anywhere after `eval` or a shell given `-c`, however wrapped, or another interpreter's `-c` or
 * `-e`): there only a plain word (no brackets, quotes, `$` or spaces) is substituted; in a
 * single-quoted `sh -c '…'` any other value is left to the inner shell, which reads it from its
 * environment as data.
 */
import type { RunResult } from './result.js';

export interface ExpandValues {
  projectDir: string;
  cwd: string;
  plansDir: string;
  sessionId: string;
}

const VARS =
  /\$(?:(GEMINI_PROJECT_DIR|GEMINI_CWD|GEMINI_PLANS_DIR|GEMINI_SESSION_ID|CLAUDE_PROJECT_DIR)|\{(GEMINI_PROJECT_DIR|GEMINI_CWD|GEMINI_PLANS_DIR|GEMINI_SESSION_ID|CLAUDE_PROJECT_DIR)\})/y;

function variableValue(name: string, v: ExpandValues): string {
  switch (name) {
    case 'GEMINI_PROJECT_DIR':
    case 'CLAUDE_PROJECT_DIR':
      return v.projectDir;
    case 'GEMINI_CWD':
      return v.cwd;
    case 'GEMINI_PLANS_DIR':
      return v.plansDir;
    default:
      return v.sessionId;
  }
}

type Context = 'bare' | 'single' | 'double' | 'ansi';

/** A value that cannot be substituted where it stands: the hook must not run. */
export class ExpansionError extends Error {}

/** The only values substituted into arithmetic: they cannot name a variable or hold a subscript. */
const WHOLE_NUMBER = /^[0-9]+$/;

function refuse(name: string, value: string): never {
  const shown = JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  throw new ExpansionError(
    `${name} is used in a shell arithmetic context (arithmetic, array subscript, let, declare -i, [[ -eq ]]) and its value ${shown} is not a whole number; not substituted, the hook did not run`,
  );
}

function refuseName(name: string, value: string, where: string): never {
  const shown = JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  throw new ExpansionError(
    `${name} is used where the shell reads it as ${where} and its value ${shown} is not a plain word; not substituted, the hook did not run`,
  );
}

/** A value bash cannot read a subscript, a quote or an expansion from. */
const PLAIN_WORD = /^[A-Za-z0-9_\-./+%@,:=]+$/;

/** The text of the simple command a substitution lands in, from what was written before it. */
function currentCommand(before: string): string {
  const ends = ['\n', ';', '&', '|', '`', '$(', '{ ', '(('].map((s) => {
    const at = before.lastIndexOf(s);
    return at === -1 ? 0 : at + s.length;
  });
  return before
    .slice(Math.max(...ends))
    .replace(/^\s*(?:(?:[A-Za-z_][A-Za-z0-9_]*=\S*|then|do|else|elif|if|while|until|!|command|builtin|exec)\s+)*/, '');
}

const NAME_TESTS = /^(?:\[\[?|test)\s(?:.*\s)?-[vR]\s+["']?$/s;
const PRINTF_NAME = /^printf\s+(?:--\s+)?-v\s*["']?$/;
const NAME_COMMANDS = /^(?:declare|typeset|local|export|readonly|unset|read|mapfile|readarray|kill|jobs|wait)\s/;
const DECLARING = /^(?:declare|typeset|local|export|readonly)\s/;
/** `sh -c '…` in the command the value lands in: a single-quoted value there is left to the inner shell. */
const SH_C_HERE = /^(?:\S*\/)?(?:ba|z|da|k|mk)?sh\s+(?:-[A-Za-z]+\s+)*-[A-Za-z]*c[A-Za-z]*\s+(?:"[^"]*|'[^']*|\S*)$/s;
/** The value is inside the code argument that ends the text before it: its quoted string, or its word. */
const CODE_ARG = String.raw`(?:=|\s*)(?:"(?:[^"\\]|\\.)*|'[^']*|[^\s'"]*)$`;
/** Options before the code flag (`--norc`, `-o pipefail`, `-O extglob`), not a script and its own arguments. */
/** Where a command word starts: the text's start, a blank, an operator, a quote or a path's last `/`. */
const BOUNDARY = '(?:^|[\\s;&|(){}`\'"/=])';
const WORDS = String.raw`(?:\s+(?:[-+][A-Za-z-]*[oO]\s+\S+|[-+]\S*)){0,16}?\s+`;
/**
 * A shell given code (`-c`), however it is named (`/bin/bash`, `$SHELL`) or wrapped (`timeout 5`,
 * `env X=1`, `nohup`, `xargs`, `find -exec`, `su -c`), whatever options come first (`--norc`,
 * `-o pipefail`), with the value inside that code: the quotes it was written into for the outer
 * shell are gone by the time the inner one reads it.
 */
const SHELL_CODE = new RegExp(
  `${BOUNDARY}${String.raw`(?:(?:ba|z|da|k|mk|fi|rba|a)?sh|su|runuser|\$\{?SHELL(?::-[^}\s]*)?\}?)["']?`}${WORDS}-[A-Za-z]*c[A-Za-z]*${CODE_ARG}`,
  's',
);
/** Another interpreter given code on its command line (`python3 -c`, `node -e`/`--eval=`, `perl -e`…), with the value in it. */
const OTHER_CODE = new RegExp(
  `${BOUNDARY}(?:(?:python[0-9.]*|pypy[0-9.]*)${WORDS}-[A-Za-z]*c|(?:node|nodejs|bun)${WORDS}(?:-[A-Za-z]*[ep]|--eval|--print)|(?:perl|ruby|lua[0-9.]*|Rscript|osascript)${WORDS}-[A-Za-z]*[eE]|php${WORDS}-[A-Za-z]*r|(?:pwsh|powershell)${WORDS}-(?:c|Command))${CODE_ARG}`,
  's',
);
/**
 * Ways a command hands text to a shell or an interpreter other than as its `-c` argument: a pipe
 * or a here-document into one, `eval`, `source <(…)`, and the programs that run their arguments
 * (awk, trap, find -exec, git aliases, make --eval, script -c, BASH_ENV…). Where the command
 * has one, a value holding a character that can form code is not substituted anywhere in it.
 */
const FEEDS_CODE = new RegExp(
  [
    String.raw`\|\s*(?:\S+=\S*\s+)*(?:(?:sudo|exec|command|env)\s+)?["']?(?:\S*\/)?(?:(?:ba|z|da|k|mk|fi|rba|a)?sh|python[0-9.]*|pypy[0-9.]*|node|nodejs|bun|deno|perl|ruby|php|lua[0-9.]*|tclsh|\$\{?SHELL\}?)\b`,
    String.raw`(?:^|[\s;&|(])["']?(?:\S*\/)?(?:(?:ba|z|da|k|mk|fi|rba|a)?sh|python[0-9.]*|node|perl|ruby|php|tclsh|\$\{?SHELL\}?)\b[^\n;|&]*<<`,
    String.raw`(?:^|[\s;&|(` + '`' + String.raw`])(?:eval|trap|g?awk|mawk|watch|ssh)\s`,
    String.raw`(?:^|[\s;&|(])(?:source|\.)\s+(?:<\(|/dev/stdin|/dev/fd/|/proc/self/fd/)`,
    String.raw`(?:^|[\s;&|(])find\s[^\n;|&]*-(?:exec|execdir|ok|okdir)\s`,
    String.raw`(?:^|[\s;&|(])git\s[^\n;|&]*-c\s*alias\.`,
    String.raw`(?:^|[\s;&|(])make\s[^\n;|&]*--eval`,
    String.raw`(?:^|[\s;&|(])(?:script|flock)\s(?:[^\n;|&]*\s)?-[A-Za-z]*c`,
    String.raw`(?:^|[\s;&|(])(?:BASH_ENV|ENV)=`,
  ].join('|'),
);
/** Characters that can form code for a shell or an interpreter (a space or a letter cannot). */
const CODE_FORMING = /[$`;&|<>\\'"\n\r()]/;
const COMPOUND_KEY = /[A-Za-z_][A-Za-z0-9_]*\+?=\((?:[^()]*\s)?\[["']?$/;

const SH_C = 'code (the text a shell is given with -c)';

/**
 * Where a value substituted after `before` (in `command`) is read as a name or as code (see the
 * module comment), if it is.
 */
function nameOrCode(before: string, command: string, value: string): string | undefined {
  const cmd = currentCommand(before);
  if (/^eval\s/.test(cmd)) return 'code (eval)';
  // In all the text before the value: `bash -c "ls; cd $X"` splits where the outer shell does not.
  if (SH_C_HERE.test(cmd) || SHELL_CODE.test(before)) return SH_C;
  if (OTHER_CODE.test(before)) return 'code (the text an interpreter is given with -c or -e)';
  if (CODE_FORMING.test(value) && FEEDS_CODE.test(command))
    return 'code (the command hands text to a shell or an interpreter: a pipe or here-document into one, eval, source, awk, sed…)';
  if (NAME_TESTS.test(cmd) || PRINTF_NAME.test(cmd) || /\[\[(?:(?!\]\])[\s\S])*\s-[vR]\s+["']?$/.test(before.slice(-300)))
    return 'a variable name (-v)';
  if (NAME_COMMANDS.test(cmd)) {
    // `export MSG=$X`: after the `=` of a declaration is its value, not a name (unless -n: a name again).
    const word = cmd.slice(cmd.search(/\S*$/));
    if (DECLARING.test(cmd) && word.includes('=') && !/\s-[A-Za-z]*n/.test(cmd)) return undefined;
    return `a variable name (${cmd.split(/\s/)[0]})`;
  }
  return undefined;
}

const SAFE = /^[A-Za-z0-9_\-./+%@,:=][A-Za-z0-9_\-./+%@,:=~]*$/;

/** Shell-quotes one value for a bare position: safe strings stay bare, others go in single quotes. */
export function shellQuote(value: string): string {
  if (value !== '' && SAFE.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The body of a `$'…'` string: plain characters kept, every other byte as `\xHH`. */
function ansiBody(value: string): string {
  let out = '';
  for (const ch of value) {
    if (/[A-Za-z0-9_\-./+%@,:=]/.test(ch)) out += ch;
    else for (const b of Buffer.from(ch, 'utf8')) out += `\\x${b.toString(16).padStart(2, '0')}`;
  }
  return out;
}

function escapeFor(value: string, ctx: Context): string {
  if (value !== '' && SAFE.test(value)) return value;
  const body = ansiBody(value);
  if (ctx === 'ansi') return body;
  if (ctx === 'single') return `'$'${body}''`;
  if (ctx === 'double') return `"$'${body}'"`;
  return `$'${body}'`;
}

/**
 * One level of command text: the top level, a `$(…)` or a backtick substitution, or an
 * arithmetic region (`arith`): `$((…))`/`((…))` (end `)`), `$[…]` and subscripts (end `]`),
 * `${x:offset}` (end `}`), `[[ … -eq … ]]` (end `]]`), `let`/`declare -i` (end of the command).
 */
interface Frame {
  ctx: Context;
  end: '' | ')' | '`' | ']' | '}' | ']]' | ';';
  parens: number;
  arith: boolean;
}

/** Where a command word may start: after an operator, an opening, or a keyword. */
const COMMAND_START = /(?:^|[;&|(){}\n`]|\b(?:then|do|else|elif|if|while|until|!))\s*$/;
const DECLARE_INTEGER = /^(?:declare|typeset|local|export|readonly)((?:[ \t]+[-+][A-Za-z]+)*)/;
const PARAM_ARITH = /^\$\{[#!]?[A-Za-z_][A-Za-z0-9_]*(?:(\[)|:(?![-=+?]))/;

/** The expanded command, or the failed run of a hook whose command cannot be expanded safely. */
export function tryExpand<A extends unknown[]>(expand: (...args: A) => string, ...args: A): string | RunResult {
  try {
    return expand(...args);
  } catch (e) {
    if (!(e instanceof ExpansionError)) throw e;
    return { success: false, exitCode: null, stdout: '', stderr: '', durationMs: 0, error: e.message };
  }
}

/** Replaces `$GEMINI_PROJECT_DIR`, `${GEMINI_PROJECT_DIR}` and friends, each escaped for the quoting context it lands in. */
export function expandCommand(command: string, values: ExpandValues): string {
  return expandVariables(command, (text, i) => {
    VARS.lastIndex = i;
    const m = VARS.exec(text);
    return m ? { length: m[0].length, value: variableValue(m[1] ?? m[2], values) } : undefined;
  });
}

/**
 * Finds a variable at `text[i]` (a `$`): its length in the command and its value, or undefined
 * to leave the text alone. Dialects with other variable names (SpatialAgent's `$QUERY`) reuse the walker.
 */
export type VariableLookup = (text: string, i: number) => { length: number; value: string } | undefined;

/** Walks the command once, tracking quotes and substitutions, and replaces the variables in place. */
export function expandVariables(command: string, lookup: VariableLookup): string {
  if (!command.includes('$')) return command;
  let out = '';
  let f: Frame = { ctx: 'bare', end: '', parens: 0, arith: false };
  const stack: Frame[] = [];
  const open = (end: Frame['end'], arith = false, parens = 0) => {
    stack.push(f);
    f = { ctx: 'bare', end, parens, arith };
  };
  const close = () => {
    f = stack.pop()!;
  };
  let i = 0;
  while (i < command.length) {
    const c = command[i];
    const next = command[i + 1] ?? '';
    if (c === '$' && next === '{' && command[i + 2] === '!') {
      // `${!X}`: bash reads the value of X as a name, from the hook's environment.
      const name = /^\$\{!([A-Za-z_][A-Za-z0-9_]*)\}/.exec(command.slice(i, i + 200))?.[1];
      const v = name ? lookup(`\${${name}}`, 0) : undefined;
      if (v && !PLAIN_WORD.test(v.value)) refuseName(`\${!${name}}`, v.value, 'a variable name (${!…})');
    }
    if (c === '$') {
      const v = lookup(command, i);
      if (v) {
        if ((f.arith || COMPOUND_KEY.test(out.slice(-200))) && !WHOLE_NUMBER.test(v.value)) refuse(command.slice(i, i + v.length), v.value);
        const where = PLAIN_WORD.test(v.value) ? undefined : nameOrCode(out, command, v.value);
        if (where === SH_C && f.ctx === 'single') {
          // `sh -c '… $X …'`: left for the inner shell, which expands it from its environment as data.
          out += command.slice(i, i + v.length);
          i += v.length;
          continue;
        }
        if (where) refuseName(command.slice(i, i + v.length), v.value, where);
        out += escapeFor(v.value, f.ctx);
        i += v.length;
        continue;
      }
    }
    const atCommand = f.ctx === 'bare' && COMMAND_START.test(out.slice(-40));
    let take = 1;
    if (f.end === ';' && f.ctx === 'bare' && (/[;&|\n`]/.test(c) || (c === ')' && f.parens === 0))) {
      // The end of a `let` or `declare -i` command; the character is read again in the outer frame.
      close();
      continue;
    }
    if (c === '`' && f.end === '`' && stack.length) close();
    else if (f.ctx === 'single') {
      if (c === "'") f.ctx = 'bare';
    } else if (c === '\\') take = 2;
    else if (f.ctx === 'ansi') {
      if (c === "'") f.ctx = 'bare';
    } else if (c === '$' && next === '(' && command[i + 2] === '(') {
      take = 3;
      open(')', true, 1);
    } else if (c === '$' && next === '(') {
      take = 2;
      open(')');
    } else if (c === '$' && next === '[') {
      take = 2;
      open(']', true);
    } else if (c === '$' && next === '{' && PARAM_ARITH.test(command.slice(i, i + 300))) {
      // `${a[…]}` and `${x:offset:length}`: the subscript or the offsets are arithmetic.
      const m = PARAM_ARITH.exec(command.slice(i, i + 300))!;
      take = m[0].length;
      open(m[1] ? ']' : '}', true);
    } else if (c === '`') open('`');
    else if (f.ctx === 'double') {
      if (c === '"') f.ctx = 'bare';
    } else if (c === "'") f.ctx = 'single';
    else if (c === '"') f.ctx = 'double';
    else if (c === '$' && next === "'") {
      take = 2;
      f.ctx = 'ansi';
    } else if (c === '(' && next === '(' && (atCommand || /\bfor\s*$/.test(out.slice(-10)))) {
      take = 2;
      open(')', true, 1);
    } else if (
      c === '[' &&
      next === '[' &&
      atCommand &&
      /^\[\[\s(?:(?!\]\])[\s\S])*?\s-(?:eq|ne|lt|le|gt|ge)\s/.test(command.slice(i, i + 2000))
    ) {
      take = 2;
      open(']]', true);
    } else if (c === ']' && next === ']' && f.end === ']]' && stack.length) {
      take = 2;
      close();
    } else if (c === '[' && (f.end === ']' || /[A-Za-z0-9_]$/.test(out))) {
      // A nested bracket, or a subscript (`a[…]=`); treated as arithmetic either way.
      if (f.end === ']') f.parens++;
      else open(']', true);
    } else if (c === ']' && f.end === ']') {
      if (f.parens > 0) f.parens--;
      else if (stack.length) close();
    } else if (c === '{' && f.end === '}') f.parens++;
    else if (c === '}' && f.end === '}') {
      if (f.parens > 0) f.parens--;
      else if (stack.length) close();
    } else if (atCommand && /^let[ \t]/.test(command.slice(i, i + 4))) {
      take = 4;
      open(';', true);
    } else if (atCommand && /[ \t][-+][A-Za-z]*i/.test(DECLARE_INTEGER.exec(command.slice(i, i + 200))?.[1] ?? '')) {
      take = DECLARE_INTEGER.exec(command.slice(i, i + 200))![0].length;
      open(';', true);
    } else if (c === '(') f.parens++;
    else if (c === ')') {
      if (f.parens > 0) f.parens--;
      else if (f.end === ')' && stack.length) close();
    } else if (c === '#' && (out === '' || /[\s;&|()<>]$/.test(out))) {
      // A comment runs to the end of the line; its apostrophes are not quotes.
      const nl = command.indexOf('\n', i);
      take = (nl === -1 ? command.length : nl) - i;
    }
    out += command.slice(i, i + take);
    i += take;
  }
  return out;
}
