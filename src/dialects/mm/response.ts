/**
 * Decoding what an mm hook writes on stdout ("Réponse"). Empty or blank stdout is
 * `{"action":"continue"}`. Like Go's `json.Unmarshal` into mm's struct: keys match
 * case-insensitively, unknown keys are ignored, `null` leaves a field unset, and a field of the
 * wrong type makes the whole response invalid, whatever the event reads.
 */
import { textNestsDeeper, tooDeep } from '../../config/limits.js';

export interface MmResponse {
  /** '' when absent: continue. */
  action: string;
  prompt?: string;
  transcript?: string;
  answer?: string;
  context: string;
  /** Any JSON value; undefined when absent or null. */
  input?: unknown;
  reason: string;
  response: string;
  error: string;
}

export type DecodeResult = { ok: true; response: MmResponse } | { ok: false; message: string };

const STRING_FIELDS = ['action', 'prompt', 'transcript', 'answer', 'context', 'reason', 'response', 'error'] as const;
const FIELDS: readonly string[] = [...STRING_FIELDS, 'input'];

function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  return typeof v === 'object' ? 'object' : typeof v;
}

const invalid = (m: string): DecodeResult => ({ ok: false, message: `invalid JSON on stdout: ${m}` });

export function decodeMmResponse(stdout: string): DecodeResult {
  const empty: MmResponse = { action: '', context: '', reason: '', response: '', error: '' };
  if (!stdout.trim()) return { ok: true, response: empty };
  if (textNestsDeeper(stdout)) return invalid(tooDeep('the response'));
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch (e) {
    return invalid((e as Error).message);
  }
  // As Go: a JSON null decodes to nothing, i.e. continue.
  if (value === null) return { ok: true, response: empty };
  if (typeof value !== 'object' || Array.isArray(value)) return invalid(`json: cannot unmarshal ${jsonType(value)} into a response object`);
  const r: Record<string, unknown> = { ...empty };
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const field = FIELDS.includes(key) ? key : FIELDS.find((f) => f.toLowerCase() === key.toLowerCase());
    if (!field || v === null) continue;
    if (field === 'input') r.input = v;
    else if (typeof v !== 'string') return invalid(`json: cannot unmarshal ${jsonType(v)} into field "${field}" of type string`);
    else r[field] = v;
  }
  return { ok: true, response: r as unknown as MmResponse };
}
