import { createHash } from 'node:crypto';
import fs from 'node:fs';

/** Strings longer than this are written in slices, never as one JSON-escaped copy. */
const SLICE = 1 << 20;

/** Roughly how many characters `JSON.stringify(value)` gives: enough to tell large from small. */
export function approxJsonSize(value: unknown, limit = Infinity): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length && size <= limit) {
    const v = stack.pop();
    if (typeof v === 'string') size += v.length + 2;
    else if (Array.isArray(v)) {
      size += 2 + v.length;
      stack.push(...v);
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        size += k.length + 4;
        stack.push(x);
      }
    } else size += 8;
  }
  return size;
}

/**
 * Writes `value` as JSON to `fd`, the same text JSON.stringify gives for plain data, without
 * building it as one string: large strings are escaped slice by slice (never splitting a
 * surrogate pair), so peak memory stays near one slice whatever the payload.
 */
export function writeJson(fd: number, value: unknown, digest = false): void {
  // With `digest`, the text's digest is taken as it is written: a trace need not serialise it again.
  const hash = digest && value && typeof value === 'object' && !digests.has(value) ? createHash('sha256') : undefined;
  jsonChunks(value, (chunk) => {
    if (!hash) return void fs.writeSync(fd, chunk);
    const bytes = Buffer.from(chunk, 'utf8');
    hash.update(bytes);
    fs.writeSync(fd, bytes);
  });
  if (hash) digests.set(value as object, `sha256:${hash.digest('hex')}`);
}

/** Digests of JSON texts already written, by the value written (its runs never change it). */
const digests = new WeakMap<object, string>();

/** `sha256:` and the digest of the value's JSON text (the one taken as it was written to a hook, if it was). */
export function jsonDigest(value: unknown): string {
  const known = value && typeof value === 'object' ? digests.get(value) : undefined;
  if (known) return known;
  const hash = createHash('sha256');
  if (typeof value === 'string') hash.update(value);
  else jsonChunks(value, (chunk) => hash.update(chunk));
  return `sha256:${hash.digest('hex')}`;
}

/** `value` as JSON text, handed to `out` in chunks of about one slice (what writeJson writes). */
export function jsonChunks(value: unknown, out: (chunk: string) => void): void {
  let pending = '';
  const emit = (s: string) => {
    pending += s;
    if (pending.length >= SLICE) {
      out(pending);
      pending = '';
    }
  };
  const visit = (v: unknown, inArray: boolean): void => {
    if (typeof v === 'string') {
      if (v.length <= SLICE) return emit(JSON.stringify(v));
      emit('"');
      for (let i = 0; i < v.length; ) {
        let end = Math.min(i + SLICE, v.length);
        const last = v.charCodeAt(end - 1);
        if (end < v.length && last >= 0xd800 && last <= 0xdbff) end++;
        emit(JSON.stringify(v.slice(i, end)).slice(1, -1));
        i = end;
      }
      return emit('"');
    }
    if (v && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON !== 'function') {
      if (Array.isArray(v)) {
        emit('[');
        v.forEach((x, i) => {
          if (i) emit(',');
          visit(x, true);
        });
        return emit(']');
      }
      emit('{');
      let first = true;
      for (const [k, x] of Object.entries(v)) {
        if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
        emit(`${first ? '' : ','}${JSON.stringify(k)}:`);
        first = false;
        visit(x, false);
      }
      return emit('}');
    }
    const s = JSON.stringify(v);
    emit(s === undefined ? (inArray ? 'null' : 'null') : s);
  };
  visit(value, false);
  if (pending) out(pending);
}
