/** The warm state a server keeps for the hook systems: one entry per key, closed on reload and shutdown. */
import type { WarmStore } from '../dialects/system.js';

/**
 * Entries kept at most: a key names a folder and, for an engine, the client's environment, so
 * clients that come and go (a session each) would otherwise leave theirs, with their waiting
 * processes, until the server stops. The least recently used one no event is using goes first.
 */
const MAX_KEPT = 32;

interface Kept {
  value: unknown;
  close: (value: unknown) => void;
  /** Events using it now. */
  users: number;
  /** Dropped from the store while in use: closed when the last of them is done. */
  dropped: boolean;
}

/** Closing one entry never stops the store: the others are still closed, the caller's event still answered. */
function closeQuietly(k: Kept): void {
  try {
    k.close(k.value);
  } catch {
    // what it held is gone with it as far as the store goes
  }
}

export class Warm implements WarmStore {
  private readonly kept = new Map<string, Kept>();
  /** The key last in `kept`, which a hit need not move. */
  private newest: string | undefined;

  constructor(private readonly max = MAX_KEPT) {}

  hold<T>(key: string, make: () => T, close: (value: T) => void): { value: T; release: () => void } {
    let k = this.kept.get(key);
    if (k) {
      // Most recently used last: the first idle entry is the one to drop.
      if (key !== this.newest) {
        this.kept.delete(key);
        this.kept.set(key, k);
        this.newest = key;
      }
      k.users++;
    } else {
      k = { value: make(), close: close as (value: unknown) => void, users: 1, dropped: false };
      this.kept.set(key, k);
      this.newest = key;
      this.evict();
    }
    const held = k;
    let released = false;
    return {
      value: held.value as T,
      release: () => {
        if (released) return;
        released = true;
        held.users--;
        if (held.users) return;
        // Closed now, with whatever the event started meanwhile; or, idle again, made room for.
        if (held.dropped) closeQuietly(held);
        else this.evict();
      },
    };
  }

  /** The value kept under `key` (made on first use), for a caller that does not hold it through an event. */
  get<T>(key: string, make: () => T, close: (value: T) => void): T {
    const h = this.hold(key, make, close);
    h.release();
    return h.value;
  }

  get size(): number {
    return this.kept.size;
  }

  /** Beyond the bound, the least recently used entries no event is using are closed; in use, they stay until a later call. */
  private evict(): void {
    if (this.kept.size <= this.max) return;
    for (const [key, k] of this.kept) {
      if (this.kept.size <= this.max) return;
      if (k.users) continue;
      this.kept.delete(key);
      closeQuietly(k);
    }
  }

  /**
   * Drops everything (persistent hook processes stop); the next fire starts afresh. What an event
   * is using is closed when that event is done. Returns how many were dropped.
   */
  clear(): number {
    const n = this.kept.size;
    for (const k of this.kept.values()) {
      if (k.users) k.dropped = true;
      else closeQuietly(k);
    }
    this.kept.clear();
    this.newest = undefined;
    return n;
  }
}
