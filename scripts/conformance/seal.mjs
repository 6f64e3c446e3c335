// Seals for test/conformance/golden.json. Each golden entry records the reference it came from,
// a hash of its case as the reference saw it (`caseHash`) and a digest of the entry itself
// (`digest`); test/conformance/conformance.test.ts recomputes all three, so a case edited
// without regenerating, or a golden edited by hand, fails. Only
// scripts/conformance/reference.mjs writes them.

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REFERENCE_VERSION = '0.61.0';
export const REFERENCE = `@google/gemini-cli-core@${REFERENCE_VERSION}`;

const HOOKS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'fixtures', 'hooks');

/** JSON with object keys sorted at every level, so a hash does not depend on key order. */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const sha256 = (text) => `sha256:${crypto.createHash('sha256').update(text).digest('hex')}`;

/**
 * Hash of what the reference is given for a case: its name, event, settings, input and disabled
 * list, plus the content of every fixture script its commands reach through $CONF_HOOKS.
 * (`fix`, `hooklineExpected` and `todo` concern Hookline's side only and are left out.)
 */
export function caseHash(c) {
  const settings = JSON.stringify(c.settings);
  const names = [...new Set([...settings.matchAll(/\$CONF_HOOKS\/([A-Za-z0-9._-]+)/g)].map((m) => m[1]))].sort();
  const fixtures = Object.fromEntries(names.map((n) => [n, fs.readFileSync(path.join(HOOKS, n), 'utf8')]));
  return sha256(canonical({ name: c.name, event: c.event, settings: c.settings, input: c.input, disabled: c.disabled, fixtures }));
}

/** Digest of a golden entry, every field but `digest` itself. */
export function entryDigest(entry) {
  const { digest: _digest, ...rest } = entry;
  return sha256(canonical(rest));
}
