import fs from 'node:fs';
import path from 'node:path';
import { trustedFoldersPath, type Env } from '../config/paths.js';
import { parseJsonc } from '../config/jsonc.js';

/** Trust levels as Gemini CLI writes them in trustedFolders.json. */
export type TrustLevel = 'TRUST_FOLDER' | 'TRUST_PARENT' | 'DO_NOT_TRUST';

export function readTrustedFolders(env: Env = process.env): Record<string, TrustLevel> {
  const file = trustedFoldersPath(env);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  const parsed = parseJsonc(text);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return {};
  const out: Record<string, TrustLevel> = {};
  for (const [k, v] of Object.entries(parsed.value as Record<string, unknown>)) {
    if (v === 'TRUST_FOLDER' || v === 'TRUST_PARENT' || v === 'DO_NOT_TRUST') out[k] = v;
  }
  return out;
}

function isWithin(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function real(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/**
 * Whether a folder is trusted: the most specific rule that covers it decides.
 * TRUST_FOLDER covers the folder and everything below; TRUST_PARENT covers its parent's tree.
 */
export function isFolderTrusted(dir: string, env: Env = process.env): boolean {
  const target = real(dir);
  let best: { len: number; trusted: boolean } | undefined;
  for (const [p, level] of Object.entries(readTrustedFolders(env))) {
    const root = level === 'TRUST_PARENT' ? path.dirname(real(p)) : real(p);
    if (!isWithin(target, root)) continue;
    const len = root.length;
    if (!best || len > best.len || (len === best.len && level === 'DO_NOT_TRUST')) best = { len, trusted: level !== 'DO_NOT_TRUST' };
  }
  return best?.trusted ?? false;
}

export function writeTrustedFolder(dir: string, level: TrustLevel, env: Env = process.env): void {
  const file = trustedFoldersPath(env);
  const all = readTrustedFolders(env);
  all[real(dir)] = level;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(all, null, 2) + '\n');
}
