import { filesStamp } from '../trust/scripts.js';
import { readLimitedText } from '../config/limits.js';

interface Seen {
  /** Size and modification time: the file is read again only when they move. */
  stamp: string;
  text: string | null;
}

function contents(file: string): string | null {
  try {
    // Bounded, and never a FIFO: the agent's own tools may have put anything there.
    return readLimitedText(file);
  } catch {
    return null;
  }
}

export class ConfigWatch<T extends { file: string }> {
  private readonly seen = new Map<string, Seen>();
  private readonly entries: T[] = [];

  /** Starts watching `entries` as they are now. */
  watch(entries: readonly T[]): void {
    for (const e of entries) {
      if (this.seen.has(e.file)) continue;
      this.seen.set(e.file, { stamp: filesStamp([e.file]), text: contents(e.file) });
      this.entries.push(e);
    }
  }

  /** The entries whose file changed since the last look (a removed file counts); each change once. */
  changed(): T[] {
    const out: T[] = [];
    for (const e of this.entries) {
      const before = this.seen.get(e.file)!;
      const stamp = filesStamp([e.file]);
      if (stamp === before.stamp) continue;
      // Touched but the same text (an editor saving unchanged) is no change.
      const text = contents(e.file);
      this.seen.set(e.file, { stamp, text });
      if (text !== before.text) out.push(e);
    }
    return out;
  }
}
