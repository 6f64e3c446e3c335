/** The warm state a server keeps for the hook systems: one entry per key, closed on reload and shutdown. */
import type { WarmStore } from '../dialects/system.js';

export class Warm implements WarmStore {
  private readonly kept = new Map<string, { value: unknown; close: (value: unknown) => void }>();

  get<T>(key: string, make: () => T, close: (value: T) => void): T {
    const found = this.kept.get(key);
    if (found) return found.value as T;
    const value = make();
    this.kept.set(key, { value, close: close as (value: unknown) => void });
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
