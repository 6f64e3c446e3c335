/**
 * Go durations (`time.ParseDuration`, `Duration.String`): mm's `timeout` is written `500ms`,
 * `5s`, `1m30s`, and its failure line prints the duration back the Go way (`timed out after 10s`).
 * Values are nanoseconds, as in Go.
 */
const NS = 1;
const US = 1_000;
const MS = 1_000_000;
const S = 1_000_000_000;
const UNITS: Record<string, number> = { ns: NS, us: US, µs: US, μs: US, ms: MS, s: S, m: 60 * S, h: 3600 * S };
const MAX = 2 ** 63 - 1;

export type DurationResult = { ok: true; ns: number } | { ok: false; message: string };

const quote = (s: string) => JSON.stringify(s);

export function parseGoDuration(orig: string): DurationResult {
  const invalid = (): DurationResult => ({ ok: false, message: `time: invalid duration ${quote(orig)}` });
  let s = orig;
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return { ok: true, ns: 0 };
  if (s === '') return invalid();
  let total = 0;
  while (s !== '') {
    const m = /^(\d*)(?:\.(\d*))?/.exec(s)!;
    const [whole, intPart, fracPart] = m;
    if (!intPart && !fracPart) return invalid();
    s = s.slice(whole.length);
    const u = /^[^\d.]*/.exec(s)![0];
    if (!u) return { ok: false, message: `time: missing unit in duration ${quote(orig)}` };
    const unit = UNITS[u];
    if (unit === undefined) return { ok: false, message: `time: unknown unit ${quote(u)} in duration ${quote(orig)}` };
    s = s.slice(u.length);
    let v = Number(intPart || '0') * unit;
    // As Go: the fraction is scaled in floating point and truncated.
    if (fracPart) v += Math.trunc(Number(`0.${fracPart}`) * unit);
    total += v;
    if (total > MAX) return invalid();
  }
  return { ok: true, ns: neg ? -total : total };
}

/** The fraction of v / 10^prec without trailing zeros, and the integer part. */
function frac(v: bigint, prec: number): [string, bigint] {
  let digits = '';
  let print = false;
  for (let i = 0; i < prec; i++) {
    const d = v % 10n;
    print ||= d !== 0n;
    if (print) digits = d.toString() + digits;
    v /= 10n;
  }
  return [print ? `.${digits}` : '', v];
}

/** Go's `Duration.String()`: `10s`, `1m30s`, `500ms`, `1.5s`, `1h0m0s`, `0s`. */
export function formatGoDuration(ns: number): string {
  const neg = ns < 0;
  let u = BigInt(Math.round(Math.abs(ns)));
  let out: string;
  if (u === 0n) return '0s';
  if (u < BigInt(S)) {
    const [unit, prec] = u < 1000n ? ['ns', 0] : u < 1_000_000n ? ['µs', 3] : ['ms', 6];
    const [f, rest] = frac(u, prec);
    out = `${rest}${f}${unit}`;
  } else {
    const [f, secs] = frac(u, 9);
    u = secs;
    out = `${u % 60n}${f}s`;
    u /= 60n;
    if (u > 0n) {
      out = `${u % 60n}m${out}`;
      u /= 60n;
      if (u > 0n) out = `${u}h${out}`;
    }
  }
  return neg ? `-${out}` : out;
}
