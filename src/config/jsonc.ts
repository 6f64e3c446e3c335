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

export function parseJsonc(text: string): ParseResult {
  const clean = stripJsonComments(text.replace(/^\uFEFF/, ''));
  try {
    return { ok: true, value: JSON.parse(clean) };
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    const pos = /position (\d+)/.exec(msg);
    if (pos) {
      const { line, column } = lineColumn(clean, Number(pos[1]));
      return { ok: false, message: `invalid JSON at line ${line}, column ${column}: ${msg.replace(/ in JSON at position \d+.*$/, '')}` };
    }
    return { ok: false, message: `invalid JSON: ${msg}` };
  }
}
