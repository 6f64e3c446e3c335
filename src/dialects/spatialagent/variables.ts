/**
 * SpatialAgent's context variables: set in the environment of `bash` hooks, and `$VAR` /
 * `${VAR}` in a hook's command or prompt filled with the value. Values are written as Python's
 * `str()` writes them (`True`, `None`, `['a', 'b']`), since hooks written for SpatialAgent test
 * them that way (`[ "$IS_ERROR" = "True" ]`).
 *
 * Deliberate fix: SpatialAgent pastes the values into the command raw, so a query such as
 * `"; rm -rf ~; echo "` runs as code. Here a value lands in the command shell-escaped for the
 * quoting context it is in (bare, '…', "…", $'…'; see run/expand.ts): `echo 'Starting: $QUERY'`
 * still prints the query, and nothing from a context variable is ever interpreted by the shell.
 */
import { expandVariables, type VariableLookup } from '../../run/expand.js';

/** A context with its keys upper-cased: `{"code": …}` and `{"CODE": …}` are the same variable. */
export type SaContext = Record<string, unknown>;

export function normalizeContext(input: Record<string, unknown>): SaContext {
  const out: SaContext = {};
  for (const [k, v] of Object.entries(input)) out[k.toUpperCase()] = v;
  return out;
}

/** Python's `repr()` of a string, close enough for logs and tests. */
function pyReprString(s: string): string {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === q) out += `\\${q}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return q + out + q;
}

function pyRepr(v: unknown): string {
  return typeof v === 'string' ? pyReprString(v) : pyStr(v);
}

/** Python's `str()` of a JSON value. */
export function pyStr(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : v > 0 ? 'inf' : v < 0 ? '-inf' : 'nan';
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  if (typeof v === 'object')
    return `{${Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${pyReprString(k)}: ${pyRepr(x)}`)
      .join(', ')}}`;
  return String(v);
}

/** Python's `json.dumps(value)`: `", "` and `": "` separators, non-ASCII as `\uXXXX`. */
export function pyJsonDumps(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string')
    return JSON.stringify(v).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : v > 0 ? 'Infinity' : v < 0 ? '-Infinity' : 'NaN';
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(pyJsonDumps).join(', ')}]`;
  return `{${Object.entries(v as Record<string, unknown>)
    .map(([k, x]) => `${pyJsonDumps(k)}: ${pyJsonDumps(x)}`)
    .join(', ')}}`;
}

/** The variables as environment variables. */
export function contextEnv(context: SaContext): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(context)) if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) env[k] = pyStr(v);
  return env;
}

/**
 * The value of a variable name: a context variable, or `ARGUMENTS` (the whole context as JSON,
 * keys in lower case, as SpatialAgent's `$ARGUMENTS`). Undefined for any other name.
 */
function variableValue(context: SaContext, name: string): string | undefined {
  if (Object.hasOwn(context, name)) return pyStr(context[name]);
  if (name === 'ARGUMENTS') return pyJsonDumps(Object.fromEntries(Object.entries(context).map(([k, v]) => [k.toLowerCase(), v])));
  return undefined;
}

const TOKEN = /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/y;

/**
 * Finds `$NAME` or `${NAME}` at `i`. The name is the longest identifier (`$CODE_TYPE` is never
 * `$CODE` followed by `_TYPE`); a name that is not a variable is left for the shell.
 */
export function variableLookup(context: SaContext): VariableLookup {
  return (text, i) => {
    TOKEN.lastIndex = i;
    const m = TOKEN.exec(text);
    if (!m) return undefined;
    const value = variableValue(context, m[1] ?? m[2]);
    return value === undefined ? undefined : { length: m[0].length, value };
  };
}

/** A `bash` hook's command with the variables filled in, shell-escaped. */
export function expandShell(command: string, context: SaContext): string {
  return expandVariables(command, variableLookup(context));
}

/** A `prompt` hook's text with the variables filled in as plain text (no shell is involved). */
export function expandPlain(template: string, context: SaContext): string {
  const lookup = variableLookup(context);
  let out = '';
  let i = 0;
  while (i < template.length) {
    const j = template.indexOf('$', i);
    if (j === -1) break;
    out += template.slice(i, j);
    const v = lookup(template, j);
    if (v) {
      out += v.value;
      i = j + v.length;
    } else {
      out += '$';
      i = j + 1;
    }
  }
  return out + template.slice(i);
}
