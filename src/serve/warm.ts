/** The warm state a server keeps for the hook systems: one entry per key, closed on reload and shutdown. */
import type { WarmStore } from '../dialects/system.js';

/**
 * Entries kept at most: a key names a folder and, for an engine, the client's environment, so
 * clients that come and go (a session each) would otherwise leave theirs, with their waiting
 * processes, until the server stops. The least recently used goes first.
 */
const MAX_KEPT = 32;

export class Warm implements WarmStore {
  private readonly kept = new Map<string, { value: unknown; close: (value: unknown) => void }>();

  constructor(private readonly max = MAX_KEPT) {}

  get<T>(key: string, make: () => T, close: (value: T) => void): T {
    const found = this.kept.get(key);
    if (found) {
      // Most recently used last: the first entry is the one to drop.
      if (this.kept.size > 1) {
        this.kept.delete(key);
        this.kept.set(key, found);
      }
      return found.value as T;
    }
    const value = make();
    this.kept.set(key, { value, close: close as (value: unknown) => void });
    for (const [k, old] of this.kept) {
      if (this.kept.size <= this.max) break;
      this.kept.delete(k);
      old.close(old.value);
    }
    return value;
  }

  get size(): number {
    return this.kept.size;
  }

  /** Drops everything (persistent hook processes stop); the next fire starts afresh. Returns how many were dropped. */
  clear(): number {
    const n = this.kept.size;
    for (const { value, close } of this.kept.values()) close(value);
    this.kept.clear();
    return n;
  }
}
