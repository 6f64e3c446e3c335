import { createHash, type Hash } from 'node:crypto';

/**
 * Strings longer than this many characters are escaped slice by slice, never as one copy; text is
 * handed on in pieces of about PIECE characters. Both keep every string made here small enough for
 * V8's young generation (its pages are reused), not its large-object space, where each string is
 * fresh memory (on a virtual machine, a page fault per page touched).
 */
const SLICE = 1 << 14;
const PIECE = 1 << 16;

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
 * A large input's JSON bytes, the same text JSON.stringify gives for plain data, in slices of
 * about 64 KiB made as the first hook reads them: large strings are escaped slice by slice (never
 * splitting a surrogate pair), so the hook reads the first slice while the next is made, the
 * bytes are the only full copy ever held, and every hook of the event is handed the same slices.
 * With `digest`, the text's digest is taken as the slices are made (a trace need not serialise
 * it again).
 */
export class JsonSlices {
  private readonly slices: Buffer[] = [];
  private readonly texts: Iterator<string>;
  private hash?: Hash;
  private done = false;

  constructor(
    private readonly value: unknown,
    digest = false,
  ) {
    this.texts = jsonTexts(value);
    if (digest && isObject(value) && !digests.has(value)) {
      this.hash = createHash('sha256');
      making.set(value, this);
    }
  }

  /** Slice `i`, made now if it is the next one; undefined past the end. */
  at(i: number): Buffer | undefined {
    while (this.slices.length <= i && !this.done) {
      const next = this.texts.next();
      if (next.done) {
        this.done = true;
        if (this.hash && isObject(this.value)) {
          digests.set(this.value, `sha256:${this.hash.digest('hex')}`);
          making.delete(this.value);
        }
        break;
      }
      const bytes = Buffer.from(next.value, 'utf8');
      this.hash?.update(bytes);
      this.slices.push(bytes);
    }
    return this.slices[i];
  }

  /** Every slice, made now if need be. */
  all(): readonly Buffer[] {
    for (let i = 0; this.at(i); i++);
    return this.slices;
  }
}

/** Digests of JSON texts already written, by the value written (its runs never change it). */
const digests = new WeakMap<object, string>();
/** Small values' JSON texts as written to hooks: a trace taken later digests what they read, whatever the host changed since. */
const texts = new WeakMap<object, string>();

/** JSON.stringify(value), kept as the text hooks were given. */
export function jsonText(value: object): string {
  const text = JSON.stringify(value);
  texts.set(value, text);
  return text;
}

/** The JSON text `jsonText` gave hooks for this value, if it did. */
export function writtenText(value: unknown): string | undefined {
  return isObject(value) ? texts.get(value) : undefined;
}
/** Slices still being made, whose digest comes with them. */
const making = new WeakMap<object, JsonSlices>();

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null;

/** `sha256:` and the digest of the value's JSON text (the one taken as it was written to a hook, if it was). */
export function jsonDigest(value: unknown): string {
  if (isObject(value)) {
    making.get(value)?.all();
    const known = digests.get(value);
    if (known) return known;
    const text = texts.get(value);
    if (text !== undefined) {
      const d = `sha256:${createHash('sha256').update(text).digest('hex')}`;
      digests.set(value, d);
      return d;
    }
  }
  const hash = createHash('sha256');
  if (typeof value === 'string') hash.update(value);
  else for (const text of jsonTexts(value)) hash.update(text);
  return `sha256:${hash.digest('hex')}`;
}

/** `value` as JSON text, in pieces of about one slice. */
export function* jsonTexts(value: unknown): Generator<string> {
  let pending = '';
  /** Adds text; true when a slice's worth is pending (the caller yields `take()`). */
  const add = (s: string) => (pending += s).length >= PIECE;
  const take = () => {
    const out = pending;
    pending = '';
    return out;
  };
  function* visit(v: unknown): Generator<string> {
    if (typeof v === 'string') {
      if (v.length <= SLICE) {
        if (add(JSON.stringify(v))) yield take();
        return;
      }
      add('"');
      for (let i = 0; i < v.length; ) {
        let end = Math.min(i + SLICE, v.length);
        const last = v.charCodeAt(end - 1);
        if (end < v.length && last >= 0xd800 && last <= 0xdbff) end++;
        if (add(JSON.stringify(v.slice(i, end)).slice(1, -1))) yield take();
        i = end;
      }
      if (add('"')) yield take();
      return;
    }
    if (v && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON !== 'function') {
      if (Array.isArray(v)) {
        add('[');
        for (let i = 0; i < v.length; i++) {
          if (i) add(',');
          yield* visit(v[i]);
        }
        if (add(']')) yield take();
        return;
      }
      add('{');
      let first = true;
      for (const [k, x] of Object.entries(v)) {
        if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
        add(`${first ? '' : ','}${JSON.stringify(k)}:`);
        first = false;
        yield* visit(x);
      }
      if (add('}')) yield take();
      return;
    }
    const s = JSON.stringify(v);
    if (add(s === undefined ? 'null' : s)) yield take();
  }
  yield* visit(value);
  if (pending) yield pending;
}
