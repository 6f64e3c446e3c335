import fs from 'node:fs';
import path from 'node:path';
import { trustedFoldersPath, type Env } from '../config/paths.js';
import { setJsoncValue } from '../config/jsonc.js';
import { readTrustFile } from './store.js';
import { updateFile } from '../config/write.js';
import { identityOf, realOf, recordBy, type Watched } from '../config/watched.js';

/** Trust levels as Gemini CLI writes them in trustedFolders.json. */
export type TrustLevel = 'TRUST_FOLDER' | 'TRUST_PARENT' | 'DO_NOT_TRUST';

/**
 * Reads trustedFolders.json. A missing file has no rules; an unreadable one throws when `strict`
 * (before it would be overwritten) and otherwise has no rules, so nothing is trusted.
 */
export function readTrustedFolders(env: Env = process.env, strict = false): Record<string, TrustLevel> {
  const out: Record<string, TrustLevel> = {};
  for (const [k, v] of Object.entries(readTrustFile(trustedFoldersPath(env), strict))) {
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
  return decide(dir, readTrustedFolders(env));
}

function decide(dir: string, rules: Record<string, TrustLevel>): boolean {
  const target = real(dir);
  let best: { len: number; trusted: boolean } | undefined;
  for (const [p, level] of Object.entries(rules)) {
    const root = level === 'TRUST_PARENT' ? path.dirname(real(p)) : real(p);
    if (!isWithin(target, root)) continue;
    const len = root.length;
    if (!best || len > best.len || (len === best.len && level === 'DO_NOT_TRUST')) best = { len, trusted: level !== 'DO_NOT_TRUST' };
  }
  return best?.trusted ?? false;
}

/**
 * Records in `watched` what a decision on `dir`'s trust by `rules` rests on besides the trust
 * file, read before the decision: by what each names (device and inode, or that it names
 * nothing), not by its contents, which change all the time, the paths that could take trust
 * away: each rule that covers the folder (for a TRUST_PARENT rule, its parent too, as the kernel
 * finds it through a link), each DO_NOT_TRUST rule, missing ones included (made, or made a link,
 * it may come to cover the folder), and the folder and any rule whose path goes through a link;
 * and where the folder leads, since a folder moved keeps what it names. A rule that could only
 * give trust is left: a fresh engine sees it.
 */
function watchRules(dir: string, rules: Record<string, TrustLevel>, watched: Watched): void {
  const entries = Object.entries(rules);
  if (!entries.length) return;
  const target = real(dir);
  if (target !== path.resolve(dir)) recordBy(watched, dir, identityOf);
  for (const [p, level] of entries) {
    const named = real(p);
    const covers = isWithin(target, level === 'TRUST_PARENT' ? path.dirname(named) : named);
    if (!covers && level !== 'DO_NOT_TRUST' && named === path.resolve(p)) continue;
    recordBy(watched, p, identityOf);
    // Not path.join, which would take `..` away before the link is followed.
    if (covers && level === 'TRUST_PARENT') recordBy(watched, `${p}${path.sep}..`, identityOf);
  }
  recordBy(watched, dir, realOf);
}

/** How a folder is trusted: `trusted` by the user's trustedFolders.json; `assumed` from the environment or with folder trust off. */
export type FolderTrust = 'trusted' | 'assumed' | 'untrusted';

/** With `watched` (a warm engine's), what the decision rests on is recorded there first (see `watchRules`). */
export function folderTrust(dir: string, folderTrustEnabled: boolean, env: Env = process.env, watched?: Watched): FolderTrust {
  if (env.GEMINI_RESTRICTED_MODE === 'true' || env.GEMINI_CLI_TRUST_WORKSPACE === 'false') return 'untrusted';
  if (env.GEMINI_CLI_TRUST_WORKSPACE === 'true') return 'assumed';
  if (!folderTrustEnabled) return 'assumed';
  const rules = readTrustedFolders(env);
  if (watched) watchRules(dir, rules, watched);
  return decide(dir, rules) ? 'trusted' : 'untrusted';
}

export function writeTrustedFolder(dir: string, level: TrustLevel, env: Env = process.env): void {
  const key = real(dir);
  // Read and written under the file's lock: concurrent `hookline trust` runs all keep their folder.
  updateFile(trustedFoldersPath(env), (text) => {
    const all = readTrustedFolders(env, true);
    if (all[key] === level) return undefined;
    // Written as a targeted edit: the user's other rules, comments and layout stay as they are.
    return text.trim() ? setJsoncValue(text, [key], level) : JSON.stringify({ [key]: level }, null, 2) + '\n';
  });
}
