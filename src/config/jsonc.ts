/**
 * Settings files may carry // and /* *\/ comments, as Gemini CLI allows. Comments are blanked
 * (not removed) so JSON.parse positions still point at the right line and column.
 */
export function stripJsonComments(text: string): string {
  let out = '';
  let i = 0;
  let inString = false;
  while (i < text.length) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === '\\' && i + 1 < text.length) {
        out += text[i + 1];
        i += 2;
        continue;
      }
      if (c === '"') inString = false;
      i++;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
      i++;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') {
        out += ' ';
        i++;
      }
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      for (; i < stop; i++) out += text[i] === '\n' ? '\n' : ' ';
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Line and column (1-based) of a character offset, for error messages. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      last = i;
    }
  }
  return { line, column: offset - last };
}

export type ParseResult = { ok: true; value: unknown } | { ok: false; message: string };

const describe = (c: string | undefined): string => (c === undefined ? 'end of input' : JSON.stringify(c));

/**
 * Finds where strict JSON text goes wrong: the offset and what was expected there. V8's own
 * message has no position for "Unexpected token" errors and quotes the whole input, so the
 * location is worked out here (only after JSON.parse has failed).
 */
export function locateJsonError(text: string): { offset: number; message: string } | undefined {
  let i = 0;
  const fail = (expected: string): never => {
    const prev = text.slice(0, i).trimEnd();
    const trailing = (text[i] === '}' || text[i] === ']') && prev.endsWith(',');
    throw { offset: i, message: `unexpected ${describe(text[i])}, expected ${expected}${trailing ? ' (trailing commas are not allowed)' : ''}` };
  };
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const string = () => {
    i++;
    while (i < text.length) {
      const c = text[i];
      if (c === '"') {
        i++;
        return;
      }
      if (c === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail('four hex digits after \\u');
          i += 5;
        } else if (text[i] !== undefined && '"\\/bfnrt'.includes(text[i])) i++;
        else fail('an escape character');
        continue;
      }
      if (c < ' ') fail('a closing \'"\' (control characters must be escaped)');
      i++;
    }
    fail('a closing \'"\'');
  };
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('a double-quoted property name');
        string();
        ws();
        if (text[i] !== ':') fail("':'");
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return;
        } else fail("',' or '}'");
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return;
        } else fail("',' or ']'");
      }
    }
    if (c === '"') return string();
    for (const lit of ['true', 'false', 'null']) {
      if (text.startsWith(lit, i)) {
        i += lit.length;
        return;
      }
    }
    NUMBER.lastIndex = i;
    if (c !== undefined && NUMBER.test(text)) {
      i = NUMBER.lastIndex;
      return;
    }
    fail('a value');
  };
  try {
    value();
    ws();
    if (i < text.length) fail('end of input');
  } catch (err) {
    if (err && typeof err === 'object' && 'offset' in err) return err as { offset: number; message: string };
    throw err;
  }
  return undefined;
}

function parseWith(clean: string): ParseResult {
  try {
    return { ok: true, value: JSON.parse(clean) };
  } catch (err) {
    const located = locateJsonError(clean);
    if (located) {
      const { line, column } = lineColumn(clean, located.offset);
      return { ok: false, message: `invalid JSON at line ${line}, column ${column}: ${located.message}` };
    }
    // Not expected (the locator follows the JSON grammar); keep V8's message on one line.
    const msg = (err instanceof Error ? err.message : String(err)).replace(/, ".*" is not valid JSON$/s, '').replace(/\s+/g, ' ');
    return { ok: false, message: `invalid JSON: ${msg}` };
  }
}

/** Parses settings text: JSON with comments, errors located by line and column (one line). */
export function parseJsonc(text: string): ParseResult {
  return parseWith(stripJsonComments(text.replace(/^\uFEFF/, '')));
}

/** Parses strict JSON, with the same one-line located errors as settings. */
export function parseJson(text: string): ParseResult {
  return parseWith(text.replace(/^\uFEFF/, ''));
}

interface Member {
  key: string;
  keyStart: number;
  valueStart: number;
  valueEnd: number;
}

/** Scans valid JSON (comments already blanked) from `i`; returns the offset after the value. */
function skipValue(clean: string, i: number): number {
  i = skipWs(clean, i);
  const c = clean[i];
  if (c === '"') {
    for (i++; clean[i] !== '"'; i++) if (clean[i] === '\\') i++;
    return i + 1;
  }
  if (c === '{' || c === '[') {
    const close = c === '{' ? '}' : ']';
    i = skipWs(clean, i + 1);
    while (clean[i] !== close) {
      if (c === '{') i = skipWs(clean, skipValue(clean, i)) + 1; // key and ':'
      i = skipWs(clean, skipValue(clean, i));
      if (clean[i] === ',') i = skipWs(clean, i + 1);
    }
    return i + 1;
  }
  while (i < clean.length && !/[\s,\]}]/.test(clean[i])) i++;
  return i;
}

function skipWs(clean: string, i: number): number {
  while (i < clean.length && /\s/.test(clean[i])) i++;
  return i;
}

/** The members of the object whose `{` is at `open`, and the offset of its `}`. */
function members(clean: string, open: number): { list: Member[]; close: number } {
  const list: Member[] = [];
  let i = skipWs(clean, open + 1);
  while (clean[i] !== '}') {
    const keyStart = i;
    const keyEnd = skipValue(clean, i);
    const valueStart = skipWs(clean, skipWs(clean, keyEnd) + 1);
    const valueEnd = skipValue(clean, valueStart);
    list.push({ key: JSON.parse(clean.slice(keyStart, keyEnd)) as string, keyStart, valueStart, valueEnd });
    i = skipWs(clean, valueEnd);
    if (clean[i] === ',') i = skipWs(clean, i + 1);
  }
  return { list, close: i };
}

/** The whitespace that starts the line holding offset `i`. */
function indentAt(text: string, i: number): string {
  const lineStart = text.lastIndexOf('\n', i - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

const render = (value: unknown, indent: string) => JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`);

/**
 * Sets `path` (object keys) to `value` in JSON-with-comments text, changing nothing else: the
 * user's comments, key order and layout are kept. Missing objects on the way are created.
 */
export function setJsoncValue(text: string, path: readonly string[], value: unknown): string {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const src = text.slice(bom.length);
  const clean = stripJsonComments(src);
  const parsed = parseWith(clean);
  if (!parsed.ok) throw new Error(parsed.message);
  if (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) throw new Error('settings must be a JSON object');
  let open = skipWs(clean, 0);
  for (let depth = 0; depth < path.length; depth++) {
    const key = path[depth];
    // The value to write at this level: the rest of the path as nested objects.
    const rest = path.slice(depth + 1).reduceRight<unknown>((v, k) => ({ [k]: v }), value);
    const { list, close } = members(clean, open);
    const found = list.filter((m) => m.key === key).at(-1);
    if (found && depth < path.length - 1 && clean[found.valueStart] === '{') {
      open = found.valueStart;
      continue;
    }
    if (found) {
      const out = src.slice(0, found.valueStart) + render(rest, indentAt(src, found.keyStart)) + src.slice(found.valueEnd);
      return bom + out;
    }
    if (!list.length) {
      const indent = indentAt(src, open);
      const inner = `${indent}  `;
      const out = `${src.slice(0, open)}{\n${inner}${JSON.stringify(key)}: ${render(rest, inner)}\n${indent}}${src.slice(close + 1)}`;
      return bom + out;
    }
    const last = list[list.length - 1];
    const sameLine = !src.slice(open, last.keyStart).includes('\n');
    const sep = sameLine ? ' ' : `\n${indentAt(src, last.keyStart)}`;
    const indent = sameLine ? indentAt(src, open) : indentAt(src, last.keyStart);
    const out = `${src.slice(0, last.valueEnd)},${sep}${JSON.stringify(key)}: ${render(rest, indent)}${src.slice(last.valueEnd)}`;
    return bom + out;
  }
  return bom + src;
}
