/**
 * `$GEMINI_PROJECT_DIR` and friends are replaced in the command text before the shell sees it.
 * The value is written for the quoting context it lands in (bare, '…', "…", $'…'), tracked
 * through `$(…)` and backticks, so a path with spaces or quotes is one literal word. Whatever
 * the context, an unusual value only ever appears as `$'…'` with `\xHH` escapes: if the
 * tracking is wrong (heredocs, `case` inside `$(…)`), the value may come out wrong but can
 * never run as code. The reference escapes for the bare context only, which breaks inside
 * double quotes and lets `"$(dirname "$GEMINI_PROJECT_DIR")"` execute parts of the path.
 */
export interface ExpandValues {
  projectDir: string;
  cwd: string;
  plansDir: string;
  sessionId: string;
}

const VARS = /\$(GEMINI_PROJECT_DIR|GEMINI_CWD|GEMINI_PLANS_DIR|GEMINI_SESSION_ID|CLAUDE_PROJECT_DIR)/y;

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

/** One level of command text: the top level, a `$(…)` or a backtick substitution. */
interface Frame {
  ctx: Context;
  end: '' | ')' | '`';
  parens: number;
}

/** Replaces `$GEMINI_PROJECT_DIR` and friends, each escaped for the quoting context it lands in. */
export function expandCommand(command: string, values: ExpandValues): string {
  return expandVariables(command, (text, i) => {
    VARS.lastIndex = i;
    const m = VARS.exec(text);
    return m ? { length: m[0].length, value: variableValue(m[1], values) } : undefined;
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
  let f: Frame = { ctx: 'bare', end: '', parens: 0 };
  const stack: Frame[] = [];
  const open = (end: ')' | '`') => {
    stack.push(f);
    f = { ctx: 'bare', end, parens: 0 };
  };
  let i = 0;
  while (i < command.length) {
    const c = command[i];
    const next = command[i + 1] ?? '';
    if (c === '$') {
      const v = lookup(command, i);
      if (v) {
        out += escapeFor(v.value, f.ctx);
        i += v.length;
        continue;
      }
    }
    let take = 1;
    if (c === '`' && f.end === '`' && stack.length) f = stack.pop()!;
    else if (f.ctx === 'single') {
      if (c === "'") f.ctx = 'bare';
    } else if (c === '\\') take = 2;
    else if (f.ctx === 'ansi') {
      if (c === "'") f.ctx = 'bare';
    } else if (c === '$' && next === '(') {
      take = 2;
      open(')');
    } else if (c === '`') open('`');
    else if (f.ctx === 'double') {
      if (c === '"') f.ctx = 'bare';
    } else if (c === "'") f.ctx = 'single';
    else if (c === '"') f.ctx = 'double';
    else if (c === '$' && next === "'") {
      take = 2;
      f.ctx = 'ansi';
    } else if (c === '(') f.parens++;
    else if (c === ')') {
      if (f.parens > 0) f.parens--;
      else if (f.end === ')' && stack.length) f = stack.pop()!;
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
