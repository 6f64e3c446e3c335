import picomatch from 'picomatch';
import { RE2JS } from 're2js';

/**
 * Glob patterns (`**`, `*`, `?`, `{a,b}`, `{1..3}`, `[...]`, `[[:digit:]]`) matched against
 * slash-separated relative paths. picomatch turns a glob into an expression; it is run by RE2,
 * so even hostile patterns match in linear time (JavaScript's backtracking took minutes on
 * `*a*a*a…b`).
 */

const MAX_EXPANSIONS = 1000;

const OPTIONS: picomatch.PicomatchOptions = { dot: true, posix: true, noextglob: true, nonegate: true };

/**
 * picomatch's lookarounds, which RE2 cannot run. They keep `*` from matching an empty name
 * or a `.`/`..` segment; paths from a walk have neither (no empty, `.` or `..` segment, no
 * trailing slash), so dropping them changes no match once the dead `$` branches are gone.
 */
const LOOKAROUNDS = ['(?!\\.{1,2}(?:\\/|$))', '(?!(?:^|\\/)\\.{1,2}(?:\\/|$))', '(?!\\.{0,1}(?:\\/|$))', '(?!\\.)'];

/** How many names bash would expand the braces of `glob` to; refused past MAX_EXPANSIONS. */
function expansions(glob: string): number {
  let total = 1;
  const stack: number[] = [];
  let alts = 1;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') i++;
    else if (c === '{') {
      stack.push(alts);
      alts = 1;
    } else if (c === ',' && stack.length) alts++;
    else if (c === '}' && stack.length) {
      total *= alts;
      alts = stack.pop()!;
    }
  }
  return total;
}

/** Parentheses, `+` and `|` are plain characters in a glob; picomatch would read them as regex. */
const literal = (glob: string): string => glob.replace(/\\.|[()+|]/gs, (m) => (m.length === 2 ? m : `\\${m}`));

export type Matcher = (relPath: string) => boolean;

/**
 * Compiles a glob into a matcher for relative paths like `src/a/b.ts`.
 * Throws on patterns that cannot be compiled (the message says why).
 */
export function compileGlob(glob: string, opts: { nocase?: boolean } = {}): Matcher {
  if (expansions(glob) > MAX_EXPANSIONS) throw new Error(`pattern expands to more than ${MAX_EXPANSIONS} alternatives`);
  // `dir/**` means what is inside dir, not dir itself (as minimatch and git read it).
  const pattern = literal(/(^|\/)\*\*$/.test(glob) && glob !== '**' ? `${glob}/*` : glob);
  let source = picomatch.makeRe(pattern, OPTIONS).source;
  for (const look of LOOKAROUNDS) source = source.split(look).join('');
  // `(?=.)`: a `$` branch just before it never matches (drop it), and a name is never empty.
  source = source.split('|$)(?=.)').join(')').split('(?=.)').join('');
  const re = RE2JS.compile(source, opts.nocase ? RE2JS.CASE_INSENSITIVE : 0);
  return (p) => re.test(p);
}
