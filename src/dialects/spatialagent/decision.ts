/**
 * Reading a SpatialAgent hook's decision from text: a `bash` hook's output, a `prompt` hook's
 * model answer.
 *
 * 1. A JSON object with a `decision` key, anywhere in the text: alone, inside a ```json fence,
 *    or embedded in prose. The first such object wins. `"block"` blocks (so do `"deny"` and
 *    `"reject"`, the fallback's words, case-insensitively); any other value approves.
 * 2. Prompt hooks only, when there is no such object: the keyword fallback.
 */

import { valueNestsDeeper } from '../../config/limits.js';

export interface Decision {
  decision: 'approve' | 'block';
  reason: string;
}

const BLOCK_VALUES = new Set(['block', 'deny', 'reject']);

/**
 * Where the JSON object starting at `start` (a `{`) ends, strings and nesting respected; -1 when
 * it does not end within the text or within `budget.chars` characters (spent as it scans).
 */
function objectEnd(text: string, start: number, budget: { chars: number }): number {
  let depth = 0;
  let inString = false;
  const stop = Math.min(text.length, start + budget.chars);
  budget.chars -= stop - start;
  for (let i = start; i < stop; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i + 1;
  }
  return -1;
}

/** Characters scanned at most while looking for objects: text full of unclosed `{` stays fast. */
const SCAN_BUDGET = 16_000_000;

/**
 * The first JSON object in `text` that has a `decision` key, outer objects before inner ones.
 * Objects nested deeper than MAX_JSON_DEPTH are skipped (they cannot be read safely).
 */
export function findDecisionJson(text: string): Decision | undefined {
  let attempts = 0;
  const budget = { chars: SCAN_BUDGET };
  for (let i = text.indexOf('{'); i !== -1 && attempts < 10_000 && budget.chars > 0; i = text.indexOf('{', i + 1), attempts++) {
    const end = objectEnd(text, i, budget);
    if (end === -1) continue;
    let value: unknown;
    try {
      value = JSON.parse(text.slice(i, end));
    } catch {
      continue;
    }
    if (!value || typeof value !== 'object' || Array.isArray(value) || !('decision' in value)) continue;
    if (valueNestsDeeper(value)) continue;
    const o = value as Record<string, unknown>;
    const d = typeof o.decision === 'string' ? o.decision.trim().toLowerCase() : '';
    const reason = o.reason === undefined || o.reason === null ? '' : typeof o.reason === 'string' ? o.reason : JSON.stringify(o.reason);
    return { decision: BLOCK_VALUES.has(d) ? 'block' : 'approve', reason };
  }
  return undefined;
}

/**
 * The keyword fallback, without the false positives of a plain substring search.
 *
 * The rule: the answer blocks when it contains one of the words block, deny or reject (any
 * case, as a whole word, with its -s/-ed/-ing forms: blocks, blocked, blocking, denies, denied,
 * denying, rejects, rejected, rejecting) that is not negated. An occurrence is negated when one
 * of the three words before it, in the same clause, is a negation: not, no, never, nothing,
 * none, neither, nor, without, cannot, or a word ending in n't (don't, doesn't, shouldn't…, also
 * written without the apostrophe).
 * A clause ends at . , ; : ! ? a line break, or the word "but".
 *
 * So "do not block", "don't deny", "no reason to reject", "not blocking", "there is nothing to
 * block" approve, while "Do not run this. Block it.", "No, block it" and "I must reject this"
 * block. Words that merely contain a keyword (unblocked, blockchain, denylist) do not count.
 */
const KEYWORD = /\b(?:block(?:s|ed|ing)?|den(?:y|ies|ied|ying)|reject(?:s|ed|ing)?)\b/gi;
const NEGATIONS = new Set([
  'not',
  'no',
  'never',
  'nothing',
  'none',
  'neither',
  'nor',
  'without',
  'cannot',
  'dont',
  'doesnt',
  'didnt',
  'isnt',
  'shouldnt',
  'wont',
  'cant',
]);

function isNegation(word: string): boolean {
  const w = word.toLowerCase().replace(/’/g, "'");
  return NEGATIONS.has(w) || w.endsWith("n't");
}

export function keywordBlocks(text: string): boolean {
  for (const m of text.matchAll(KEYWORD)) {
    const before = text.slice(0, m.index);
    const clause = before.split(/[.,;:!?\n]|\bbut\b/i).pop() ?? '';
    const words = clause.match(/[A-Za-z]+(?:['’][A-Za-z]+)?/g) ?? [];
    if (!words.slice(-3).some(isNegation)) return true;
  }
  return false;
}

/** A prompt hook's answer: the JSON decision first, then the keyword fallback (the reason is then the whole answer). */
export function decideFromAnswer(answer: string): Decision {
  const json = findDecisionJson(answer);
  if (json) return json;
  if (keywordBlocks(answer)) return { decision: 'block', reason: answer };
  return { decision: 'approve', reason: '' };
}
