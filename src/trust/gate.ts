/**
 * The one trust gate, used by every hook system and every command: which workspace hooks may
 * run, which are held back, and which are new ones to record. It decides on data and writes
 * nothing; recording is the caller's explicit step (only when hooks are about to run).
 *
 * - untrusted folder: every workspace hook is held back (`untrusted-folder`);
 * - folder trusted by the user (trustedFolders.json): a new or changed hook is held back
 *   (`untrusted-hook`) until `hookline trust`;
 * - trust assumed (GEMINI_CLI_TRUST_WORKSPACE=true, folder trust off): new or changed hooks run,
 *   reported and recorded, as Gemini CLI does — except a hook that cannot be fingerprinted (a
 *   file its command runs is missing or unreadable), which is held back whatever the trust.
 */
import type { FolderTrust } from './folders.js';

export type HoldReason = 'untrusted-folder' | 'untrusted-hook';

export interface Gated<T> {
  /** What may run: the user's own hooks, and the workspace's trusted ones. */
  run: T[];
  held: Array<{ item: T; reason: HoldReason }>;
  /** New or changed workspace hooks that run because trust is assumed: to report and record. */
  unrecorded: T[];
}

export interface GateOptions<T> {
  trust: FolderTrust;
  isWorkspace(item: T): boolean;
  /** The hook's fingerprint is trusted for the project. */
  isTrusted(item: T): boolean;
  /** The hook has a fingerprint that could be recorded. */
  canRecord(item: T): boolean;
}

export function gate<T>(items: readonly T[], opts: GateOptions<T>): Gated<T> {
  const out: Gated<T> = { run: [], held: [], unrecorded: [] };
  for (const item of items) {
    if (!opts.isWorkspace(item)) out.run.push(item);
    else if (opts.trust === 'untrusted') out.held.push({ item, reason: 'untrusted-folder' });
    else if (opts.isTrusted(item)) out.run.push(item);
    else if (opts.trust === 'trusted' || !opts.canRecord(item)) out.held.push({ item, reason: 'untrusted-hook' });
    else {
      out.run.push(item);
      out.unrecorded.push(item);
    }
  }
  return out;
}
