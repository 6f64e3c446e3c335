/**
 * What the user reviewed when a workspace hook was trusted: its event, matcher, command and a
 * digest of each project file it runs. Fingerprints (keys.ts) are one-way, so a held-back hook
 * can only say *that* it changed; this record lets the warning say *what* changed. It is kept in
 * Hookline's own file beside Gemini CLI's trusted_hooks.json and never decides trust.
 */
import fs from 'node:fs';
import path from 'node:path';
import { userGeminiDir, type Env } from '../config/paths.js';
import { lockedUpdate, writeFileAtomic } from '../config/write.js';
import { visible } from '../config/display.js';
import { readTrustFile } from './store.js';
import { sha256File } from './scripts.js';

export interface Reviewed {
  event: string;
  matcher?: string;
  command: string | null;
  /** Project-relative path → sha256 of the content (null: missing or unreadable). */
  files: Record<string, string | null>;
}

/** A hook as this record sees it: `DialectHook` fits. */
export interface ReviewedHook {
  id: string;
  event: string;
  matcher?: string;
  command: string | null;
  files: readonly string[];
}

export function reviewedPath(env: Env = process.env): string {
  return path.join(userGeminiDir(env), 'hookline', 'reviewed_hooks.json');
}

function digest(file: string): string | null {
  try {
    return sha256File(file);
  } catch {
    return null;
  }
}

/** One spelling per folder: the record is found whichever path (a symlink) the caller used. */
function realDir(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return dir;
  }
}

export function snapshotOf(h: ReviewedHook, projectDir: string): Reviewed {
  projectDir = realDir(projectDir);
  const files: Record<string, string | null> = {};
  for (const f of h.files) files[path.relative(projectDir, f) || f] = digest(f);
  return { event: h.event, ...(h.matcher ? { matcher: h.matcher } : {}), command: h.command, files };
}

type Store = Record<string, Record<string, Reviewed>>;

function read(env: Env): Store {
  return readTrustFile(reviewedPath(env), false) as Store;
}

/** Records what the user reviewed. Best effort: it only improves later warnings. */
export function rememberReviewed(projectDir: string, hooks: readonly ReviewedHook[], env: Env = process.env): void {
  if (!hooks.length) return;
  try {
    // Owner-only, as `hookline serve` requires of its default socket folder beside this file.
    fs.mkdirSync(path.dirname(reviewedPath(env)), { recursive: true, mode: 0o700 });
    lockedUpdate(reviewedPath(env), () => {
      const all = read(env);
      const dir = realDir(projectDir);
      const project = { ...(all[dir] ?? {}) };
      for (const h of hooks) project[h.id] = snapshotOf(h, dir);
      all[dir] = project;
      writeFileAtomic(reviewedPath(env), `${JSON.stringify(all, null, 2)}\n`);
    });
  } catch {
    // A read-only home: the warning falls back to "new or changed".
  }
}

const quote = (s: string | null | undefined) => (s ? JSON.stringify(visible(s)) : 'none');

/**
 * Says what changed in a hook since it was trusted — `new hook`, `command was "a"`,
 * `guard.sh changed since trusted`, … — or undefined when nothing was recorded for the folder
 * (trusted before this record existed). The record is read once, for all the hooks asked about.
 */
export function changeDescriber(projectDir: string, env: Env = process.env): (h: ReviewedHook) => string | undefined {
  const project = read(env)[realDir(projectDir)];
  if (!project || typeof project !== 'object') return () => undefined;
  return (h) => {
    const before = project[h.id];
    if (!before || typeof before !== 'object') return 'new hook';
    const now = snapshotOf(h, projectDir);
    const out: string[] = [];
    if (before.event !== now.event) out.push(`event was ${before.event}`);
    if ((before.matcher ?? '') !== (now.matcher ?? '')) out.push(`matcher was ${quote(before.matcher)}`);
    if (before.command !== now.command) out.push(`command was ${quote(before.command)}`);
    const beforeFiles = before.files ?? {};
    for (const [f, d] of Object.entries(now.files)) {
      if (!(f in beforeFiles)) out.push(`now runs ${visible(f)}`);
      else if (beforeFiles[f] !== d) out.push(d === null ? `${visible(f)} is missing` : `${visible(f)} changed since trusted`);
    }
    return out.length ? out.join('; ') : 'a setting of the hook changed since trusted';
  };
}
