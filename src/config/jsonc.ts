import {
  applyEdits,
  createScanner,
  findNodeAtLocation,
  modify,
  parseTree,
  printParseErrorCode,
  stripComments,
  type ParseError,
} from 'jsonc-parser';

/**
 * Settings files may carry // and /* *\/ comments, as Gemini CLI allows (it strips them and
 * then runs JSON.parse, so trailing commas stay errors). Parsing and editing are jsonc-parser's;
 * this module turns its errors into one-line messages with a line and column.
 */

export type ParseResult = { ok: true; value: unknown } | { ok: false; message: string };

/** Deeper nesting is refused before parsing: the parser recurses, and no settings file needs it. */
export const MAX_DEPTH = 1000;

/** Line and column (1-based) of a character offset, for error messages. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    last = i;
  }
  return { line, column: offset - last };
}

const EXPECTED: Record<string, string> = {
  PropertyNameExpected: 'a double-quoted property name',
  ValueExpected: 'a value',
  ColonExpected: "':'",
  CommaExpected: "','",
  CloseBraceExpected: "',' or '}'",
  CloseBracketExpected: "',' or ']'",
  EndOfFileExpected: 'end of input',
};

/** Errors the scanner finds inside one token; they are reported at the token's start. */
const TOKEN_ERRORS: Record<string, string> = {
  InvalidNumberFormat: 'invalid number',
  UnexpectedEndOfNumber: 'invalid number',
  UnexpectedEndOfString: "a string with no closing '\"'",
  InvalidEscapeCharacter: 'a string with an invalid escape',
  InvalidUnicode: 'a string with an invalid \\u escape (four hex digits expected)',
  InvalidCharacter: 'a string with a control character (it must be escaped)',
  UnexpectedEndOfComment: "a comment with no closing '*/'",
  InvalidCommentToken: 'comments are not allowed in JSON',
};

const describe = (c: string | undefined): string => (c === undefined ? 'end of input' : JSON.stringify(c));

/** The last token (not comment or whitespace) before `offset`, and the bracket it sits in. */
function tokenBefore(text: string, offset: number): { prev?: string; open?: string } {
  const scanner = createScanner(text, true);
  const opens: string[] = [];
  let prev: string | undefined;
  while (scanner.scan() !== 17 /* EOF */ && scanner.getTokenOffset() < offset) {
    prev = text.slice(scanner.getTokenOffset(), scanner.getPosition());
    if (prev === '{' || prev === '[') opens.push(prev);
    else if (prev === '}' || prev === ']') opens.pop();
  }
  return { prev, open: opens.at(-1) };
}

/** Where the nesting first goes past MAX_DEPTH, scanning without recursion. */
function tooDeep(text: string): number | undefined {
  const scanner = createScanner(text, true);
  let depth = 0;
  for (let kind = scanner.scan(); kind !== 17 /* EOF */; kind = scanner.scan()) {
    if (kind === 1 /* { */ || kind === 3 /* [ */) {
      if (++depth > MAX_DEPTH) return scanner.getTokenOffset();
    } else if (kind === 2 /* } */ || kind === 4 /* ] */) depth--;
  }
  return undefined;
}

function located(text: string, offset: number, what: string): ParseResult {
  const { line, column } = lineColumn(text, offset);
  return { ok: false, message: `invalid JSON at line ${line}, column ${column}: ${what}` };
}

function describeError(text: string, error: ParseError): string {
  const name = printParseErrorCode(error.error);
  const at = describe(text[error.offset]);
  if (name === 'InvalidSymbol') return `unexpected ${at}`;
  if (TOKEN_ERRORS[name]) return TOKEN_ERRORS[name];
  const { prev, open } = tokenBefore(text, error.offset);
  // jsonc-parser says "value expected" where an object wants its next key.
  const key = name === 'ValueExpected' && open === '{' && (prev === '{' || prev === ',');
  const closing = text[error.offset] === '}' || text[error.offset] === ']';
  const trailing = closing && prev === ',' ? ' (trailing commas are not allowed)' : '';
  if (key) return `unexpected ${at}, expected ${EXPECTED.PropertyNameExpected}${trailing}`;
  return `unexpected ${at}, expected ${EXPECTED[name] ?? 'valid JSON'}${trailing}`;
}

function parseText(text: string, comments: boolean): ParseResult {
  const deep = tooDeep(text);
  if (deep !== undefined) return located(text, deep, `nested more than ${MAX_DEPTH} levels deep`);
  const errors: ParseError[] = [];
  parseTree(text, errors, { disallowComments: !comments, allowTrailingComma: false, allowEmptyContent: false });
  if (errors.length) return located(text, errors[0].offset, describeError(text, errors[0]));
  // The value itself comes from JSON.parse, so "__proto__" and duplicate keys behave as in Gemini CLI.
  try {
    return { ok: true, value: JSON.parse(comments ? stripComments(text, ' ') : text) };
  } catch (err) {
    const msg = (err instanceof Error ? err.message : String(err)).replace(/, ".*" is not valid JSON$/s, '').replace(/\s+/g, ' ');
    return { ok: false, message: `invalid JSON: ${msg}` };
  }
}

/** Parses settings text: JSON with comments, errors located by line and column (one line). */
export function parseJsonc(text: string): ParseResult {
  return parseText(text.replace(/^\uFEFF/, ''), true);
}

/** Parses strict JSON, with the same one-line located errors as settings. */
export function parseJson(text: string): ParseResult {
  return parseText(text.replace(/^\uFEFF/, ''), false);
}

/** The file's own indentation and line ends, so an edit looks like the rest of it. */
function formatOf(text: string): { insertSpaces: boolean; tabSize: number; eol: string } {
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? '  ';
  const tabs = indent.startsWith('\t');
  return { insertSpaces: !tabs, tabSize: tabs ? 1 : indent.length, eol: text.includes('\r\n') ? '\r\n' : '\n' };
}

/**
 * Sets `path` (object keys) to `value` in JSON-with-comments text, changing nothing else: the
 * user's comments, key order and layout are kept. Missing objects on the way are created, and
 * a value on the way that is not an object is replaced by one.
 */
export function setJsoncValue(text: string, path: readonly string[], value: unknown): string {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const src = text.slice(bom.length);
  const parsed = parseJsonc(src);
  if (!parsed.ok) throw new Error(parsed.message);
  if (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value))
    throw new Error('settings must be a JSON object');
  const root = parseTree(src)!;
  // Stop at the first key on the way whose value is not an object, and write the rest nested.
  let depth = 1;
  while (depth < path.length && findNodeAtLocation(root, path.slice(0, depth))?.type === 'object') depth++;
  const at = path.slice(0, depth);
  const rest = path.slice(depth).reduceRight<unknown>((v, k) => ({ [k]: v }), value);
  const edits = modify(src, at, rest, { formattingOptions: formatOf(src) });
  return bom + applyEdits(src, edits);
}
