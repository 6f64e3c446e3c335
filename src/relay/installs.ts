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
import { loadCodexConfig } from '../dialects/codex/config.js';
import { withTrustRecords } from '../dialects/codex/trust.js';
import type { HostName } from './answers.js';
import {
  entriesIn,
  FORMATS,
  installedAsAsked,
  portIn,
  readSettings,
  type InstallChoice,
  relayWords,
  withEntries,
  withoutEntries,
  type InstallScope,
} from './install.js';

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
  /** Other files the install changed (Codex's review records in its config.toml), each to give back the same way. */
  also?: Array<{ file: string; before: string | null; after: string }>;
  /** Folders the install made for the file (deepest first): removed with it when they are left empty. */
  made?: string[];
}

/** The folders missing on the way to `dir`, deepest first. */
function missingDirs(dir: string): string[] {
  const out: string[] = [];
  for (let d = path.resolve(dir); !fs.existsSync(d) && d !== path.dirname(d); d = path.dirname(d)) out.push(d);
  return out;
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

/**
 * Codex runs a hook only once its review record (`hooks.state` in the user's config.toml) matches
 * the hook's place and hash. The user asked for Hookline's entries, so the install records them,
 * keyed as Codex keys them: appended after the user's own groups, their records stay valid.
 */
function recordCodexEntries(
  file: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): { file: string; before: string | null; after: string } | undefined {
  const config = loadCodexConfig({ projectDir: cwd, env });
  const records = config.hooks
    .filter((h) => path.resolve(h.file) === path.resolve(file) && relayWords(h.command))
    .map((h) => ({ key: h.codex.key, hash: h.codex.hash }));
  if (!records.length) return undefined;
  const configFile = config.userConfig;
  return lockedUpdate(configFile, () => {
    const before = readText(configFile);
    const after = withTrustRecords(before ?? '', records);
    if (after !== (before ?? '')) writeFileAtomic(configFile, after);
    return { file: configFile, before, after };
  });
}

/**
 * The entries `hookline install` wrote into `file`, as their commands and URLs say them, from the
 * install's own record (kept where a project cannot write): empty when the user installed nothing there.
 */
export function installedEntries(file: string, env: NodeJS.ProcessEnv): Set<string> {
  const record = readRecord(file, env);
  if (!record) return new Set();
  const read = readSettings(file, record.after);
  if ('problem' in read) return new Set();
  const out = new Set<string>();
  for (const { handler } of entriesIn(read.value))
    for (const k of ['command', 'bash', 'url'] as const) if (typeof handler[k] === 'string') out.add(handler[k] as string);
  return out;
}

/** Puts back a file the install changed, when nothing else changed it since. */
function giveBack(f: { file: string; before: string | null; after: string }): boolean {
  if (readText(f.file) !== f.after) return false;
  if (f.before === null) fs.rmSync(f.file, { force: true });
  else writeFileAtomic(f.file, f.before);
  return true;
}

export interface Planned {
  file: string;
  before: string | null;
  after: string;
  /** Nothing to change: already installed as asked. */
  same: boolean;
}

/** The port of Hookline's http entries in the agent's file now, if it has any (a re-install keeps it). */
export function installedPort(agent: HostName, scope: InstallScope, cwd: string, env: NodeJS.ProcessEnv): number | undefined {
  const file = FORMATS[agent].file(scope, cwd, env);
  const read = readSettings(file, readText(file) ?? '');
  return 'problem' in read ? undefined : portIn(read.value);
}

/** What an install would write, without writing it. Throws a one-line error for a broken file. */
export function planInstall(agent: HostName, scope: InstallScope, cwd: string, choice: InstallChoice, env: NodeJS.ProcessEnv): Planned {
  const file = FORMATS[agent].file(scope, cwd, env);
  const before = readText(file);
  const read = readSettings(file, before ?? '');
  if ('problem' in read) throw new Error(read.problem);
  if (installedAsAsked(read.value, agent, choice)) return { file, before, after: before ?? '', same: true };
  // Entries of an earlier install (another Hookline path, other sources) are replaced, not doubled.
  const after = withEntries(entriesIn(read.value).length ? withoutEntries(before ?? '') : (before ?? ''), agent, choice);
  return { file, before, after, same: false };
}

export interface Installed {
  file: string;
  changed: boolean;
  record?: string;
}

export function install(agent: HostName, scope: InstallScope, cwd: string, choice: InstallChoice, env: NodeJS.ProcessEnv): Installed {
  const hooksFrom = [...choice.hooksFrom];
  const file = FORMATS[agent].file(scope, cwd, env);
  const missing = missingDirs(path.dirname(file));
  return lockedUpdate(file, () => {
    // Planned again under the lock: what is written is computed from the file as it is now.
    const plan = planInstall(agent, scope, cwd, choice, env);
    if (plan.same) return { file, changed: false };
    const earlier = readRecord(file, env);
    // A re-install over Hookline's own earlier install keeps the bytes from before the first one.
    const over = earlier && earlier.after === plan.before;
    const before = over ? earlier.before : plan.before;
    const made = over ? (earlier.made ?? []) : missing;
    const at = new Date().toISOString();
    let record = writeRecord({ agent, scope, file, before, after: plan.after, hooksFrom, at, made }, env);
    writeFileAtomic(file, plan.after);
    if (agent === 'codex') {
      const also = recordCodexEntries(file, cwd, env);
      const first = earlier && earlier.after === plan.before ? earlier.also?.[0] : undefined;
      if (also)
        record = writeRecord(
          { agent, scope, file, before, after: plan.after, hooksFrom, at, made, also: [first ? { ...also, before: first.before } : also] },
          env,
        );
    }
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
  const recorded = readRecord(file, env);
  const made = recorded?.made ?? [];
  // Nothing there and nothing recorded: nothing to take back, and no folder made for a lock.
  if (!fs.existsSync(file) && !recorded) return { file, how: 'none', entries: 0 };
  const done = lockedUpdate(file, () => {
    const now = readText(file);
    const read = readSettings(file, now ?? '');
    if ('problem' in read) throw new Error(read.problem);
    const entries = entriesIn(read.value).length;
    const record = readRecord(file, env);
    let how: Uninstalled['how'] = 'none';
    if (record && now === record.after) {
      if (record.before === null) fs.rmSync(file, { force: true });
      else writeFileAtomic(file, record.before);
      for (const f of record.also ?? []) giveBack(f);
      how = 'restored';
    } else if (entries && now !== null) {
      writeFileAtomic(file, withoutEntries(now));
      how = 'removed';
    }
    if (record) fs.rmSync(recordPath(file, env), { force: true });
    return { file, how, entries };
  });
  // The folders the install made go too, once nothing is left in them (its lock is gone by now).
  if (done.how === 'restored' && !fs.existsSync(file))
    for (const dir of made)
      try {
        fs.rmdirSync(dir);
      } catch {
        break;
      }
  return done;
}
