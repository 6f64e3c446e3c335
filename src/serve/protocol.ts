/** JSON-RPC 2.0 as `hookline serve` speaks it: request checks, error codes, responses. */
import { isLosslessNumber, parse as parseLossless, stringify as stringifyLossless, type LosslessNumber } from 'lossless-json';
import { MAX_JSON_DEPTH, textNestsDeeper, tooDeep } from '../config/limits.js';

/** A request line (or HTTP body) longer than this is refused unread. */
export const MAX_REQUEST_BYTES = 10 * 1024 * 1024;

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
/** The hook system refused to fire (e.g. mm with a configuration error); `data` has its lines and exit status. */
export const FIRE_REFUSED = -32000;

/** A request's id; a number JSON cannot hold exactly (beyond 2^53) is kept as its text. */
export type Id = string | number | LosslessNumber | null;

export interface Request {
  id?: Id;
  method: string;
  params: Record<string, unknown>;
}

export interface RpcErrorBody {
  code: number;
  message: string;
  data?: unknown;
}

export type Response = { jsonrpc: '2.0'; id: Id; result: unknown } | { jsonrpc: '2.0'; id: Id; error: RpcErrorBody };

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const errorResponse = (id: Id, code: number, message: string, data?: unknown): Response => ({
  jsonrpc: '2.0',
  id,
  error: { code, message, ...(data !== undefined ? { data } : {}) },
});

/** Parses a line or body: one request object or a batch (an array of them). */
export function parseMessage(text: string): { ok: true; value: unknown } | { ok: false; response: Response } {
  if (textNestsDeeper(text, MAX_JSON_DEPTH))
    return { ok: false, response: errorResponse(null, INVALID_REQUEST, `invalid request: ${tooDeep('the request')}`) };
  try {
    return { ok: true, value: exactIds(JSON.parse(text), text) };
  } catch (err) {
    const msg = (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').slice(0, 200);
    return { ok: false, response: errorResponse(null, PARSE_ERROR, `parse error: ${msg}`) };
  }
}

const isId = (v: unknown): v is Id =>
  v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) || isLosslessNumber(v);

const inexact = (v: unknown) =>
  typeof v === 'object' && v !== null && typeof (v as { id?: unknown }).id === 'number' && !Number.isSafeInteger((v as { id: number }).id);

/**
 * The message with each numeric id that JSON.parse rounded (beyond 2^53) put back as its exact
 * text, read again by a parser that keeps numbers as written; everything else as JSON.parse read it.
 */
function exactIds(value: unknown, text: string): unknown {
  const list = Array.isArray(value) ? value : [value];
  if (!list.some(inexact)) return value;
  let exact: unknown;
  try {
    exact = parseLossless(text);
  } catch {
    // What JSON.parse reads and this parser does not (a key given twice): the ids as JSON.parse read them.
    return value;
  }
  const exactList = (Array.isArray(exact) ? exact : [exact]) as Array<{ id?: unknown }>;
  const fixed = list.map((v, i) => (inexact(v) && isLosslessNumber(exactList[i]?.id) ? { ...(v as object), id: exactList[i].id } : v));
  return Array.isArray(value) ? fixed : fixed[0];
}

/** A response's text: an id kept as text is written back exactly as it came. */
export function responseText(value: unknown): string {
  const ids = (Array.isArray(value) ? value : [value]) as Array<{ id?: unknown }>;
  return ids.some((r) => isLosslessNumber(r?.id)) ? stringifyLossless(value)! : JSON.stringify(value);
}

/** Checks the envelope of one request; throws RpcError with the id it could read. */
export function checkRequest(value: unknown): Request {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new RpcError(INVALID_REQUEST, 'invalid request: expected a JSON-RPC 2.0 request object');
  const v = value as Record<string, unknown>;
  const id = 'id' in v && isId(v.id) ? v.id : null;
  const fail = (msg: string) => {
    throw Object.assign(new RpcError(INVALID_REQUEST, `invalid request: ${msg}`), { id });
  };
  if (v.jsonrpc !== '2.0') fail('"jsonrpc" must be "2.0"');
  if ('id' in v && !isId(v.id)) fail('"id" must be a string, a number or null');
  if (typeof v.method !== 'string') fail('"method" must be a string');
  if (v.params !== undefined && (typeof v.params !== 'object' || v.params === null)) fail('"params" must be an object');
  // A structured value, but by position: a valid request whose params these methods do not take.
  // A notification (no id) is never answered, even with an error.
  if (Array.isArray(v.params))
    throw Object.assign(new RpcError(INVALID_PARAMS, 'invalid params: give them by name, as an object'), {
      id,
      notification: !('id' in v),
    });
  return { ...('id' in v ? { id: v.id as Id } : {}), method: v.method as string, params: (v.params ?? {}) as Record<string, unknown> };
}

/** The id a failed check could read, for its error response. */
export const idOf = (err: unknown): Id => (err as { id?: Id }).id ?? null;
