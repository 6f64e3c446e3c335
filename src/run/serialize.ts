import { createHash } from 'node:crypto';

/**
 * Strings longer than this many characters are escaped slice by slice, never as one copy; small
 * values' text is joined up to about PIECE characters. Both keep every string made here small
 * enough for V8's young generation (its pages are reused), not its large-object space, where each
 * string is fresh memory (on a virtual machine, a page fault per page touched).
 */
const SLICE = 1 << 14;
const PIECE = 1 << 16;
/** A value whose JSON text is at most about this long is made into one string when digested. */
const SMALL = 1 << 16;
/** Characters of a large string looked at (and, needing no escape, handed on) at a time. */
const RUN = 1 << 17;
/**
 * Bytes per buffer a large input is written to a hook from, and how many are in its pipe at
 * once. The same few buffers are written again and again: after each process the engine starts,
 * every page it writes to costs a fault (fork() marked them copy-on-write), so bytes made into
 * fresh or long-held buffers cost several times the writing itself.
 */
const CHUNK = 1 << 18;
const IN_FLIGHT = 8;
/**
 * A string with none of what JSON.stringify would change: its own JSON text, quoted. Anchored and
 * negated, as V8 runs it as one tight loop (a search for the first such character is slower by
 * half on a long string that has none, such as base64).
 */
const NO_ESCAPE = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

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

/** Buffers whose writes are done, for the next: at most SPARE_MAX, let go once idle for a while. */
const spare: Buffer[] = [];
const SPARE_MAX = 32;
const SPARE_IDLE_MS = 10_000;
let spareTimer: NodeJS.Timeout | undefined;
const takeSpare = (): Buffer => spare.pop() ?? Buffer.allocUnsafeSlow(CHUNK);
function giveSpare(buf: Buffer): void {
  if (buf.length !== CHUNK || spare.length >= SPARE_MAX) return;
  spare.push(buf);
  spareTimer?.refresh();
  spareTimer ??= setTimeout(() => {
    spare.length = 0;
    spareTimer = undefined;
  }, SPARE_IDLE_MS).unref();
}

/** Where a large input is written: a hook's stdin. */
interface Sink {
  readonly destroyed?: boolean;
  write(chunk: Buffer, done: (err?: Error | null) => void): boolean;
  end(): void;
}

/**
 * A large input's JSON bytes, the same text JSON.stringify gives for plain data, made as each hook
 * reads them and never held whole: pieces of text are encoded straight into a few reused buffers
 * (no joined string is made; a run of a large string needing no escape is encoded from the string
 * itself), each buffer written again once its write is done. With `digest`, the text's digest is
 * taken on the first whole pass (a trace need not serialise it again).
 */
export class JsonSlices {
  private hashing = false;

  constructor(
    private readonly value: unknown,
    private readonly digest = false,
  ) {}

  /**
   * Writes the text to `out` as fast as it takes it, then ends it. Stops at the first write that
   * fails (the hook closed its end) or once `out` is destroyed; a value that cannot be written as
   * JSON (a BigInt, a getter that throws) stops it too, and is handed to `failed`.
   */
  writeTo(out: Sink, failed: (err: Error) => void): void {
    const slices = encode(this.value, takeSpare);
    const value = this.value;
    const hash = this.digest && !this.hashing && isObject(value) && !digests.has(value) ? createHash('sha256') : undefined;
    if (hash) this.hashing = true;
    let ended = false;
    let inFlight = 0;
    const stop = () => {
      ended = true;
      if (hash) this.hashing = false;
    };
    const pump = (): void => {
      while (!ended && inFlight < IN_FLIGHT) {
        if (out.destroyed) return stop();
        let next: IteratorResult<Slice>;
        try {
          next = slices.next();
        } catch (err) {
          stop();
          return failed(err instanceof Error ? err : new Error(String(err)));
        }
        if (next.done) {
          ended = true;
          if (hash && isObject(value)) digests.set(value, `sha256:${hash.digest('hex')}`);
          return out.end();
        }
        const { given, own, bytes } = next.value;
        if (own !== given) giveSpare(given);
        if (bytes.length === 0) {
          giveSpare(own);
          continue;
        }
        hash?.update(bytes);
        inFlight++;
        // The buffer is free once its write is done (or failed); a failed one ends the writing.
        out.write(bytes, (err) => {
          inFlight--;
          giveSpare(own);
          if (err) stop();
          else pump();
        });
      }
    };
    pump();
  }

  /** Every slice, each in a buffer of its own. */
  all(): Buffer[] {
    return [...encode(this.value, () => Buffer.allocUnsafeSlow(CHUNK))].map((s) => s.bytes).filter((b) => b.length > 0);
  }
}

/** A slice of the text: its bytes, in `own`, the buffer it was `given` or (a larger piece) one of its own. */
interface Slice {
  given: Buffer;
  own: Buffer;
  bytes: Buffer;
}

/** The value's JSON text as bytes, slice by slice, each encoded into a buffer `take()` gives. */
function* encode(value: unknown, take: () => Buffer): Generator<Slice> {
  const texts = jsonTexts(value, RUN);
  let carry: string | undefined;
  for (;;) {
    const given = take();
    const filled = fill(given, texts, carry);
    carry = filled.carry;
    yield { given, own: filled.buf, bytes: filled.buf.subarray(0, filled.used) };
    if (filled.done && carry === undefined) return;
  }
}

/**
 * Encodes pieces into `buf` one after another until the next would not fit (`carry`, for the
 * next buffer) or there are none left (`done`). A piece larger than `buf` gets a buffer of its own.
 */
function fill(
  buf: Buffer,
  texts: Iterator<string>,
  carry: string | undefined,
): { buf: Buffer; used: number; carry?: string; done: boolean } {
  let used = 0;
  for (;;) {
    let text = carry;
    carry = undefined;
    if (text === undefined) {
      const next = texts.next();
      if (next.done) return { buf, used, done: true };
      text = next.value;
    }
    // Three bytes per UTF-16 unit at most; the exact length only when that bound does not fit.
    const room = buf.length - used;
    const need = text.length * 3 <= room ? text.length * 3 : Buffer.byteLength(text);
    if (need > room) {
      if (used > 0) return { buf, used, carry: text, done: false };
      buf = Buffer.allocUnsafeSlow(need);
    }
    used += buf.write(text, used);
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
const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null;

/** `sha256:` and the digest of the value's JSON text (the one taken as it was written to a hook, if it was). */
export function jsonDigest(value: unknown): string {
  if (isObject(value)) {
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
  // A small value's text at once; only a large one piece by piece, never held as one string.
  else if (approxJsonSize(value, SMALL) <= SMALL) hash.update(JSON.stringify(value) ?? 'null');
  else for (const text of jsonTexts(value)) hash.update(text);
  const d = `sha256:${hash.digest('hex')}`;
  if (isObject(value)) digests.set(value, d);
  return d;
}

/** `end`, or one past it where a surrogate pair would be cut there. */
function pairEnd(s: string, end: number): number {
  if (end >= s.length) return s.length;
  const high = s.charCodeAt(end - 1);
  const low = s.charCodeAt(end);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff ? end + 1 : end;
}

/** What JSON.stringify writes for `v` under `key`: what its toJSON gives, a boxed primitive's own value. */
function jsonValue(v: unknown, key: string): unknown {
  if ((v && typeof v === 'object') || typeof v === 'bigint') {
    const toJSON = (v as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') v = toJSON.call(v, key);
  }
  return v instanceof Number || v instanceof String || v instanceof Boolean ? v.valueOf() : v;
}

/** Left out of an object, as JSON.stringify leaves it (null in an array). */
const unwritten = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';

/**
 * `value` as JSON text, in pieces of about PIECE characters; a large string comes `run`
 * characters at a time, each run that needs no escape as a view of the string (no copy).
 */
export function* jsonTexts(value: unknown, run = PIECE): Generator<string> {
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
      // A run needing no escape is handed on as a view of the string; one that does is escaped
      // slice by slice. Deciding run by run lets the hook read the first while the next is looked at.
      add('"');
      if (pending) yield take();
      for (let i = 0; i < v.length; ) {
        const end = pairEnd(v, i + run);
        const part = v.slice(i, end);
        if (NO_ESCAPE.test(part)) yield part;
        else
          for (let j = 0; j < part.length; ) {
            const e = pairEnd(part, j + SLICE);
            yield JSON.stringify(part.slice(j, e)).slice(1, -1);
            j = e;
          }
        i = end;
      }
      add('"');
      return;
    }
    if (v && typeof v === 'object') {
      if (Array.isArray(v)) {
        add('[');
        for (let i = 0; i < v.length; i++) {
          if (i) add(',');
          yield* visit(jsonValue(v[i], String(i)));
        }
        if (add(']')) yield take();
        return;
      }
      add('{');
      let first = true;
      for (const [k, x] of Object.entries(v)) {
        const r = jsonValue(x, k);
        if (unwritten(r)) continue;
        add(`${first ? '' : ','}${JSON.stringify(k)}:`);
        first = false;
        yield* visit(r);
      }
      if (add('}')) yield take();
      return;
    }
    const s = JSON.stringify(v);
    if (add(s === undefined ? 'null' : s)) yield take();
  }
  yield* visit(jsonValue(value, ''));
  if (pending) yield pending;
}
