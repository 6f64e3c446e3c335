/**
 * `hookline install` and `uninstall` as transactions over the agent's file: under its lock, the
 * text before is kept (a record in ~/.hookline/installs, owner-only), the new text is written
 * atomically, and an uninstall puts the old bytes back when nothing else changed the file since,
 * else removes only Hookline's entries.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readLimitedText } from '../config/limits.js';
import { lockedUpdate, writeFileAtomic } from '../config/write.js';
import type { HostName } from './answers.js';
import { entriesIn, FORMATS, installedAsAsked, readSettings, withEntries, withoutEntries, type InstallScope } from './install.js';

export interface InstallRecord {
  agent: HostName;
  scope: InstallScope;
  file: string;
  /** The file's text before the install; null when there was no file. */
  before: string | null;
  /** The text the install wrote. */
  after: string;
  hooksFrom: string[];
  at: string;
}

export function installsDir(env: NodeJS.ProcessEnv): string {
  return path.join(env.HOME || os.homedir(), '.hookline', 'installs');
}

function recordPath(file: string, env: NodeJS.ProcessEnv): string {
  const id = crypto.createHash('sha256').update(path.resolve(file)).digest('hex').slice(0, 16);
  return path.join(installsDir(env), `${id}.json`);
}

export function readRecord(file: string, env: NodeJS.ProcessEnv): InstallRecord | undefined {
  try {
    const r = JSON.parse(fs.readFileSync(recordPath(file, env), 'utf8')) as InstallRecord;
    return typeof r.after === 'string' && path.resolve(r.file) === path.resolve(file) ? r : undefined;
  } catch {
    return undefined;
  }
}

function writeRecord(r: InstallRecord, env: NodeJS.ProcessEnv): string {
  const p = recordPath(r.file, env);
  fs.mkdirSync(path.dirname(p), { recursive: true, mode: 0o700 });
  writeFileAtomic(p, `${JSON.stringify(r, null, 2)}\n`);
  fs.chmodSync(p, 0o600);
  return p;
}

function readText(file: string): string | null {
  try {
    return readLimitedText(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`cannot read ${file}: ${(e as Error).message}`);
  }
}

export interface Planned {
  file: string;
  before: string | null;
  after: string;
  /** Nothing to change: already installed as asked. */
  same: boolean;
}

/** What an install would write, without writing it. Throws a one-line error for a broken file. */
export function planInstall(agent: HostName, scope: InstallScope, cwd: string, hooksFrom: string[], env: NodeJS.ProcessEnv): Planned {
  const file = FORMATS[agent].file(scope, cwd, env);
  const before = readText(file);
  const read = readSettings(file, before ?? '');
  if ('problem' in read) throw new Error(read.problem);
  if (installedAsAsked(read.value, agent, hooksFrom)) return { file, before, after: before ?? '', same: true };
  // Entries of an earlier install (another Hookline path, other sources) are replaced, not doubled.
  const after = withEntries(entriesIn(read.value).length ? withoutEntries(before ?? '') : (before ?? ''), agent, hooksFrom);
  return { file, before, after, same: false };
}

export interface Installed {
  file: string;
  changed: boolean;
  record?: string;
}

export function install(agent: HostName, scope: InstallScope, cwd: string, hooksFrom: string[], env: NodeJS.ProcessEnv): Installed {
  const file = FORMATS[agent].file(scope, cwd, env);
  return lockedUpdate(file, () => {
    // Planned again under the lock: what is written is computed from the file as it is now.
    const plan = planInstall(agent, scope, cwd, hooksFrom, env);
    if (plan.same) return { file, changed: false };
    const earlier = readRecord(file, env);
    // A re-install over Hookline's own earlier install keeps the bytes from before the first one.
    const before = earlier && earlier.after === plan.before ? earlier.before : plan.before;
    const record = writeRecord({ agent, scope, file, before, after: plan.after, hooksFrom, at: new Date().toISOString() }, env);
    writeFileAtomic(file, plan.after);
    return { file, changed: true, record };
  });
}

export interface Uninstalled {
  file: string;
  /** restored: the bytes from before; removed: only Hookline's entries (the file changed since); none: nothing of Hookline's there. */
  how: 'restored' | 'removed' | 'none';
  entries: number;
}

export function uninstall(agent: HostName, scope: InstallScope, cwd: string, env: NodeJS.ProcessEnv): Uninstalled {
  const file = FORMATS[agent].file(scope, cwd, env);
  return lockedUpdate(file, () => {
    const now = readText(file);
    const read = readSettings(file, now ?? '');
    if ('problem' in read) throw new Error(read.problem);
    const entries = entriesIn(read.value).length;
    const record = readRecord(file, env);
    let how: Uninstalled['how'] = 'none';
    if (record && now === record.after) {
      if (record.before === null) fs.rmSync(file, { force: true });
      else writeFileAtomic(file, record.before);
      how = 'restored';
    } else if (entries && now !== null) {
      writeFileAtomic(file, withoutEntries(now));
      how = 'removed';
    }
    if (record) fs.rmSync(recordPath(file, env), { force: true });
    return { file, how, entries };
  });
}
