import fs from 'node:fs';

/**
 * Bounds on what Hookline reads from files, hooks and events, so that hostile input gives a
 * one-line error instead of a stack overflow or hundreds of megabytes of memory.
 *
 * Depth: JSON.parse copes with any nesting, but JSON.stringify, structuredClone and every
 * recursive walk of the parsed value overflow the stack from about 2,000 levels (structuredClone)
 * or 4,500 (JSON.stringify) on Node 20; settings and hook outputs never need more than a few.
 */
export const MAX_JSON_DEPTH = 1000;

/** Settings, trust and dialect configuration files larger than this are refused, not parsed. */
export const MAX_CONFIG_BYTES = 5 * 1024 * 1024;

export const tooDeep = (what: string): string => `${what} is nested deeper than ${MAX_JSON_DEPTH} levels`;

/**
 * Whether JSON text nests arrays and objects deeper than `max`, counted without parsing (so it is
 * safe before a recursive parser). Brackets inside strings do not count; with `comments`, nor do
 * those in `//` and `/* *\/` comments. Unbalanced text counts what is open, so 200,000 `[` is deep.
 */
export function textNestsDeeper(text: string, max = MAX_JSON_DEPTH, comments = false): boolean {
  // Each level takes at least one character: a shorter text cannot be deeper (most events).
  const n = text.length;
  if (n <= max) return false;
  let depth = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      for (i++; i < n; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c /* \ */) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      if (depth > 0) depth--;
    } else if (comments && c === 0x2f /* / */) {
      const next = text.charCodeAt(i + 1);
      if (next === 0x2f) {
        const end = text.indexOf('\n', i);
        i = end === -1 ? n : end;
      } else if (next === 0x2a /* * */) {
        const end = text.indexOf('*/', i + 2);
        i = end === -1 ? n : end + 1;
      }
    }
  }
  return false;
}

/**
 * The same bound for YAML text: flow brackets outside quotes and comments, plus the block
 * nesting of `- ` and `key:` on one line (`- - - - x`). Errs towards "deep" on odd text, which
 * then gets a clear error rather than a parse that may exhaust the stack.
 */
export function yamlNestsDeeper(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inlineBlock = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const ch = text[i];
    if (ch === '\n') {
      // Block nesting needs indentation: a line indented past the bound nests too deep.
      let indent = 0;
      while (text[i + 1 + indent] === ' ' || text[i + 1 + indent] === '\t') indent++;
      if (indent > max) return true;
      inlineBlock = 0;
      continue;
    }
    const prev = i === 0 ? '\n' : text[i - 1];
    const atWordStart = prev === ' ' || prev === '\t' || prev === '\n' || prev === '[' || prev === '{' || prev === ',';
    if (ch === '#' && (prev === ' ' || prev === '\t' || prev === '\n')) {
      const end = text.indexOf('\n', i);
      i = (end === -1 ? n : end) - 1;
    } else if ((ch === '"' || ch === "'") && atWordStart) {
      for (i++; i < n; i++) {
        if (ch === '"' && text[i] === '\\') i++;
        else if (text[i] === ch) {
          if (ch === "'" && text[i + 1] === "'") i++;
          else break;
        }
      }
    } else if (ch === '[' || ch === '{') {
      if (++depth + inlineBlock > max) return true;
    } else if (ch === ']' || ch === '}') {
      if (depth > 0) depth--;
    } else if ((ch === '-' || ch === '?' || ch === ':') && (text[i + 1] === ' ' || text[i + 1] === '\t')) {
      if (depth + ++inlineBlock > max) return true;
    }
  }
  return false;
}

/** Whether a parsed value nests arrays and objects deeper than `max` (walked without recursion). */
export function valueNestsDeeper(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d + 1 > max) return true;
    for (const x of Array.isArray(v) ? v : Object.values(v)) if (x !== null && typeof x === 'object') stack.push([x, d + 1]);
  }
  return false;
}

const mib = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

/** A file refused for its size: the message says how large it is and what the limit is. */
export class FileTooLargeError extends Error {
  code = 'EFBIG';
}

/**
 * Opens a file for reading only if it is a regular file: a FIFO, socket or device in its place
 * (which a repository can put there) would block the read, or never end. Opened without blocking,
 * then checked; a folder is EISDIR, anything else not regular is ENOTREG.
 */
export function openRegularFile(file: string): number {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  const st = fs.fstatSync(fd);
  if (st.isFile()) return fd;
  fs.closeSync(fd);
  if (st.isDirectory()) throw Object.assign(new Error('EISDIR: illegal operation on a directory, read'), { code: 'EISDIR' });
  throw Object.assign(new Error('not a regular file (a FIFO, socket or device)'), { code: 'ENOTREG' });
}

/**
 * Reads a configuration file as UTF-8, refusing one larger than `limit` bytes before reading it
 * all (the size is also checked as it is read, so a FIFO or a /proc file cannot slip past). Read
 * errors are thrown as they are (ENOENT, EISDIR…), for the caller's own messages.
 */
export function readLimitedText(file: string, limit = MAX_CONFIG_BYTES): string {
  const fd = openRegularFile(file);
  try {
    const st = fs.fstatSync(fd);
    if (st.size > limit) throw new FileTooLargeError(`file is ${mib(st.size)}, larger than the ${mib(limit)} limit`);
    try {
      return readCappedText(fd, limit);
    } catch (e) {
      throw e instanceof FileTooLargeError ? new FileTooLargeError(`file is ${e.message}`) : e;
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** An `http` hook's response body larger than this is not read: no decision needs a megabyte. */
export const MAX_HTTP_RESPONSE_BYTES = 1024 * 1024;

/** Why a path a read found missing is there after all, as a link to nothing (the user meant a file there); undefined when it is absent. */
export function danglingLink(file: string): string | undefined {
  try {
    return `it is a link to ${fs.readlinkSync(file)}, which does not exist`;
  } catch {
    return undefined;
  }
}

/** An event given to `hookline fire` larger than this is refused: no event needs more, and /dev/zero must not fill the memory. */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;

/**
 * Reads a file or an open descriptor (stdin, a FIFO, /dev/stdin) to its end as UTF-8, refusing
 * it once it passes `limit` bytes. A descriptor that would block is waited on, not an error.
 */
export function readCappedText(source: string | number, limit = MAX_INPUT_BYTES): string {
  const fd = typeof source === 'number' ? source : fs.openSync(source, 'r');
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    const buf = Buffer.alloc(64 * 1024);
    for (;;) {
      let got: number;
      try {
        got = fs.readSync(fd, buf, 0, buf.length, null);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
        continue;
      }
      if (got === 0) break;
      total += got;
      if (total > limit) throw new FileTooLargeError(`larger than the ${mib(limit)} limit`);
      chunks.push(Buffer.from(buf.subarray(0, got)));
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    if (typeof source !== 'number') fs.closeSync(fd);
  }
}
