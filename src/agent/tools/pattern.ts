import { RE2JS } from 're2js';

/**
 * Glob patterns (`**`, `*`, `?`, `{a,b}`, `{1..3}`, `[...]`) matched against
 * slash-separated relative paths. Patterns become RE2 expressions, so even
 * hostile patterns match in linear time.
 */

const MAX_EXPANSIONS = 1000;

/** Index of the `}` closing the `{` at `open`, or -1. */
function closingBrace(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}

/** Splits brace content on top-level commas. */
function splitAlternatives(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === ',' && depth === 0) {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  out.push(s.slice(start));
  return out;
}

/** Expands `{a,b}` and `{1..3}` like bash; braces without a comma or range stay literal. */
export function expandBraces(pattern: string): string[] {
  let results = [pattern];
  for (let guard = 0; guard < 64; guard++) {
    let changed = false;
    const next: string[] = [];
    for (const p of results) {
      let i = -1;
      let close = -1;
      let alts: string[] | null = null;
      for (let j = 0; j < p.length; j++) {
        if (p[j] === '\\') {
          j++;
          continue;
        }
        if (p[j] !== '{') continue;
        const k = closingBrace(p, j);
        if (k < 0) continue;
        const inner = p.slice(j + 1, k);
        const range = /^(-?\d{1,6})\.\.(-?\d{1,6})$/.exec(inner);
        if (range) {
          const a = Number(range[1]);
          const b = Number(range[2]);
          if (Math.abs(b - a) < MAX_EXPANSIONS) {
            alts = [];
            for (let n = a; a <= b ? n <= b : n >= b; n += a <= b ? 1 : -1) alts.push(String(n));
          }
        } else {
          const parts = splitAlternatives(inner);
          if (parts.length > 1) alts = parts;
        }
        if (alts) {
          i = j;
          close = k;
          break;
        }
      }
      if (!alts) {
        next.push(p);
        continue;
      }
      changed = true;
      for (const a of alts) next.push(p.slice(0, i) + a + p.slice(close + 1));
      if (next.length > MAX_EXPANSIONS) throw new Error(`pattern expands to more than ${MAX_EXPANSIONS} alternatives`);
    }
    results = next;
    if (!changed) break;
  }
  return results;
}

function lit(c: string): string {
  return /[A-Za-z0-9]/.test(c) || c.charCodeAt(0) >= 128 ? c : '\\' + c;
}

const POSIX_CLASSES = new Set(['alnum', 'alpha', 'ascii', 'blank', 'cntrl', 'digit', 'graph', 'lower', 'print', 'punct', 'space', 'upper', 'word', 'xdigit']);

/** Converts a `[...]` class starting at `i`; returns null when it is not a complete class. */
function charClass(s: string, i: number): { re: string; end: number } | null {
  let j = i + 1;
  let negate = false;
  if (s[j] === '!' || s[j] === '^') {
    negate = true;
    j++;
  }
  let body = '';
  let first = true;
  while (j < s.length) {
    const c = s[j];
    if (c === ']' && !first) return { re: negate ? `[^/${body}]` : `[${body}]`, end: j };
    first = false;
    if (c === '[' && s[j + 1] === ':') {
      const close = s.indexOf(':]', j + 2);
      const name = close > 0 ? s.slice(j + 2, close) : '';
      if (POSIX_CLASSES.has(name)) {
        body += `[:${name}:]`;
        j = close + 2;
        continue;
      }
    }
    let ch = c;
    if (c === '\\' && j + 1 < s.length) ch = s[++j];
    if (s[j + 1] === '-' && j + 2 < s.length && s[j + 2] !== ']') {
      let hi = s[j + 2];
      let step = 3;
      if (hi === '\\' && j + 3 < s.length) {
        hi = s[j + 3];
        step = 4;
      }
      body += `${lit(ch)}-${lit(hi)}`;
      j += step;
      continue;
    }
    body += lit(ch);
    j++;
  }
  return null;
}

/** One path segment (no slashes, no braces) to RE2 syntax. */
function segment(seg: string): string {
  let out = '';
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i];
    if (c === '*') {
      while (seg[i + 1] === '*') i++;
      out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const cls = charClass(seg, i);
      if (cls) {
        out += cls.re;
        i = cls.end;
      } else out += '\\[';
    } else if (c === '\\' && i + 1 < seg.length) out += lit(seg[++i]);
    else out += lit(c);
  }
  return out;
}

/** A brace-free glob to an RE2 expression (without anchors). */
function globSource(glob: string): string {
  const segs = glob.split('/');
  let out = '';
  let sep = false;
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i];
    if (seg === '**') {
      while (segs[i + 1] === '**') i++;
      if (i === segs.length - 1) {
        out += (sep ? '/' : '') + '.+';
        break;
      }
      out += (sep ? '/' : '') + '(?:[^/]+/)*';
      sep = false;
      continue;
    }
    out += (sep ? '/' : '') + segment(seg);
    sep = true;
  }
  return out;
}

export type Matcher = (relPath: string) => boolean;

/**
 * Compiles a glob into a matcher for relative paths like `src/a/b.ts`.
 * Throws on patterns that cannot be compiled (the message says why).
 */
export function compileGlob(glob: string, opts: { nocase?: boolean } = {}): Matcher {
  const sources = expandBraces(glob).map(globSource);
  const re = RE2JS.compile(`^(?:${sources.join('|')})$`, opts.nocase ? RE2JS.CASE_INSENSITIVE : 0);
  return (p) => re.test(p);
}
