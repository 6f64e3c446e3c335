/**
 * The settings files a session loaded, watched during it: at each of the loop's safe moments
 * (a turn's start, each model step) their contents are compared with what was loaded, and each
 * changed file is reported once. Comparing at known moments, not on filesystem events, keeps a
 * change from landing halfway through a hook point.
 */
import fs from 'node:fs';

function contents(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

export class ConfigWatch<T extends { file: string }> {
  private readonly seen = new Map<string, string | null>();
  private readonly entries: T[] = [];

  /** Starts watching `entries` as they are now. */
  watch(entries: readonly T[]): void {
    for (const e of entries) {
      if (this.seen.has(e.file)) continue;
      this.seen.set(e.file, contents(e.file));
      this.entries.push(e);
    }
  }

  /** The entries whose file changed since the last look (a removed file counts); each change once. */
  changed(): T[] {
    const out: T[] = [];
    for (const e of this.entries) {
      const now = contents(e.file);
      if (now === this.seen.get(e.file)) continue;
      this.seen.set(e.file, now);
      out.push(e);
    }
    return out;
  }
}
