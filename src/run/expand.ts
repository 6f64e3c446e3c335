/**
 * `$GEMINI_PROJECT_DIR` and friends are replaced in the command text before the shell sees it.
 * Values are escaped for the quoting context they land in (bare, '…' or "…"), so a path with
 * spaces, quotes, `$(…)` or backticks is always one literal word and never runs anything.
 * The reference escapes for the bare context only, which breaks inside double quotes.
 */
export interface ExpandValues {
  projectDir: string;
  cwd: string;
  plansDir: string;
  sessionId: string;
}

const VARS = /\$(GEMINI_PROJECT_DIR|GEMINI_CWD|GEMINI_PLANS_DIR|GEMINI_SESSION_ID|CLAUDE_PROJECT_DIR)/g;

function valueOf(name: string, v: ExpandValues): string {
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

type Context = 'bare' | 'single' | 'double';

/** Shell-quotes one value for a bare position: safe strings stay bare, others go in single quotes. */
export function shellQuote(value: string): string {
  if (value !== '' && /^[A-Za-z0-9_\-./+%@,:=][A-Za-z0-9_\-./+%@,:=~]*$/.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

function escapeFor(value: string, ctx: Context): string {
  if (ctx === 'single') return value.replace(/'/g, `'\\''`);
  if (ctx === 'double') return value.replace(/[\\"$`]/g, (c) => `\\${c}`);
  return shellQuote(value);
}

/** Walks the command once, tracking quotes, and substitutes the variables in place. */
export function expandCommand(command: string, values: ExpandValues): string {
  if (!command.includes('$')) return command;
  let out = '';
  let ctx: Context = 'bare';
  let i = 0;
  while (i < command.length) {
    const c = command[i];
    if (c === '$') {
      VARS.lastIndex = i;
      const m = VARS.exec(command);
      if (m && m.index === i) {
        out += escapeFor(valueOf(m[1], values), ctx);
        i += m[0].length;
        continue;
      }
    }
    if (c === '\\' && ctx !== 'single' && i + 1 < command.length) {
      out += c + command[i + 1];
      i += 2;
      continue;
    }
    if (c === "'" && ctx !== 'double') ctx = ctx === 'single' ? 'bare' : 'single';
    else if (c === '"' && ctx !== 'single') ctx = ctx === 'double' ? 'bare' : 'double';
    out += c;
    i++;
  }
  return out;
}
