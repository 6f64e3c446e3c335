/**
 * What a loaded configuration was read from, for a warm engine's check before events: each file
 * and folder loading read or looked for, stamped (times, size, inode) before it was read. The
 * check stats them again and reads nothing, except for an entry stamped within a file-time tick of
 * its last change: times tick coarsely on many systems (a jiffy on Linux before 6.13, a second or
 * two on some file systems), so a second change in that tick can keep the stamp. Such an entry's
 * content (a file's bytes, a folder's names) is compared too, until a check after the tick finds
 * it unchanged.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';

/**
 * How long after a change its stamp may still be taken again by another: times with a fraction
 * of a second tick once a jiffy at the slowest (10 ms, and the clock they come from lags by as
 * much); whole seconds are a file system that ticks by one or two (FAT).
 */
const settleMs = (changedMs: number) => (changedMs % 1000 ? 50 : 2_000);

export interface Stamp {
  exists: boolean;
  stamp: string;
  /** Device and inode: the same file under two names. */
  id?: string;
  /** The later of its modification and change times. */
  changedMs?: number;
  folder?: boolean;
}

function statOf(file: string): fs.Stats | undefined {
  try {
    // Checked before every event of a warm engine: a missing file must not cost an exception.
    return fs.statSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** The change time too: a rewrite that puts the old size and modification time back moves it. */
const stampText = (st: fs.Stats | undefined) => (st ? `${st.mtimeMs}:${st.ctimeMs}:${st.size}:${st.ino}` : 'missing');

export function stampOf(file: string): Stamp {
  const st = statOf(file);
  if (!st) return { exists: false, stamp: 'missing' };
  return {
    exists: true,
    stamp: stampText(st),
    id: `${st.dev}:${st.ino}`,
    changedMs: Math.max(st.mtimeMs, st.ctimeMs),
    folder: st.isDirectory(),
  };
}

export interface Watched {
  /** Where files are looked for (see load.ts `placesOf`): moving it reloads. */
  places: string;
  files: string[];
  stamps: string[];
  /** Paths a decision rests on by what they name or where they lead (folder trust), each read as it was when recorded: see `recordBy`. */
  reads: Array<{ file: string; by: (file: string) => string; was: string }>;
  /** Entries stamped within a tick of a change, by index: their content when stamped, and when that tick is over. */
  unsettled: Map<number, { content: string; until: number; folder: boolean }>;
}

export function newWatched(places: string): Watched {
  return { places, files: [], stamps: [], reads: [], unsettled: new Map() };
}

/** A file's bytes (digested) or a folder's names, as a check compares them. */
function contentOf(file: string, folder: boolean): string {
  try {
    if (folder) return fs.readdirSync(file).sort().join('\0');
    return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  } catch (e) {
    return `unreadable: ${(e as NodeJS.ErrnoException).code ?? ''}`;
  }
}

/** Records `file` with the stamp taken of it (before it was read), and returns the stamp. */
export function record(watched: Watched, file: string, s: Stamp = stampOf(file)): Stamp {
  const i = watched.files.push(file) - 1;
  watched.stamps.push(s.stamp);
  // Read after the stat: a change in between shows as a difference at the next check (a reload).
  const until = s.changedMs === undefined ? 0 : s.changedMs + settleMs(s.changedMs);
  if (Date.now() < until) watched.unsettled.set(i, { content: contentOf(file, !!s.folder), until, folder: !!s.folder });
  return s;
}

/** What a path names, links followed: device and inode, or `missing`. Not its times: a folder's change with its contents. */
export function identityOf(file: string): string {
  const st = statOf(file);
  return st ? `${st.dev}:${st.ino}` : 'missing';
}

/** Where a path leads, every link followed: `missing` when it leads nowhere. A folder moved keeps what it names, not this. */
export function realOf(file: string): string {
  try {
    return fs.realpathSync.native(file);
  } catch {
    return 'missing';
  }
}

/** Records `file` read by `by` (`identityOf`, `realOf`) now, before the decision resting on it is taken. */
export function recordBy(watched: Watched, file: string, by: (file: string) => string): void {
  watched.reads.push({ file, by, was: by(file) });
}

/** True when any watched entry changed since it was recorded. */
export function watchedChanged(watched: Watched): boolean {
  const { files, stamps, reads, unsettled } = watched;
  for (let i = 0; i < files.length; i++) if (stampText(statOf(files[i])) !== stamps[i]) return true;
  for (const r of reads) if (r.by(r.file) !== r.was) return true;
  if (!unsettled.size) return false;
  const now = Date.now();
  for (const [i, u] of unsettled) {
    if (contentOf(files[i], u.folder) !== u.content) return true;
    // Unchanged once its tick is over: a later change moves its stamp.
    if (now >= u.until) unsettled.delete(i);
  }
  return false;
}
