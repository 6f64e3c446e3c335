import { hookKey, SOURCE_PRIORITY, type HookEntry } from '../config/entry.js';
import type { EventName } from '../events/names.js';
import { compileMatcher, exactNames, type CompiledMatcher } from './matcher.js';

export interface Plan {
  event: EventName;
  entries: HookEntry[];
  sequential: boolean;
}

interface Indexed {
  entry: HookEntry;
  match: CompiledMatcher;
  key: string;
  /** Position in priority order, to merge indexed and scanned hooks back in order. */
  order: number;
}

/** One event's hooks: those with an exact-name matcher by name, the rest in a list to scan. */
interface EventIndex {
  all: Indexed[];
  byName: Map<string, Indexed[]>;
  scan: Indexed[];
}

/**
 * Hooks indexed per event with matchers compiled once, so planning an event is a filter over a
 * short array (empty for events nobody hooks).
 */
export class Planner {
  private byEvent = new Map<EventName, EventIndex>();
  /** Plans by event and matched value: agents fire the same few tool names over and over. */
  private memo = new Map<EventName, Map<string | undefined, Plan | undefined>>();
  private memoSize = 0;

  constructor(entries: readonly HookEntry[]) {
    const sorted = [...entries].sort((a, b) => SOURCE_PRIORITY[a.source] - SOURCE_PRIORITY[b.source]);
    let order = 0;
    for (const entry of sorted) {
      if (!entry.enabled) continue;
      let index = this.byEvent.get(entry.event);
      if (!index) this.byEvent.set(entry.event, (index = { all: [], byName: new Map(), scan: [] }));
      const h: Indexed = { entry, match: compileMatcher(entry.event, entry.matcher), key: hookKey(entry.hook), order: order++ };
      index.all.push(h);
      const names = exactNames(entry.event, entry.matcher);
      if (!names) index.scan.push(h);
      else for (const n of new Set(names)) index.byName.set(n, [...(index.byName.get(n) ?? []), h]);
    }
  }

  has(event: EventName): boolean {
    return this.byEvent.has(event);
  }

  /** Enabled hooks for the event, matched, deduplicated by `name:command` (first wins). */
  plan(event: EventName, matchOn: string | undefined): Plan | undefined {
    const index = this.byEvent.get(event);
    if (!index) return undefined;
    // Looked up without building a key: a repeated event costs two map reads and no allocation.
    let plans = this.memo.get(event);
    if (plans) {
      const hit = plans.get(matchOn);
      if (hit !== undefined || plans.has(matchOn)) return hit;
    }
    if (this.memoSize > 1000) {
      this.memo.clear();
      this.memoSize = 0;
      plans = undefined;
    }
    if (!plans) this.memo.set(event, (plans = new Map()));
    const plan = this.compute(event, this.candidates(index, matchOn), matchOn);
    plans.set(matchOn, plan);
    this.memoSize++;
    return plan;
  }

  /** Hooks that may match: every hook without a value, else the named ones plus those to scan. */
  private candidates(index: EventIndex, value: string | undefined): Indexed[] {
    if (!value || !index.byName.size) return index.all;
    const named = index.byName.get(value);
    if (!named) return index.scan;
    return [...named, ...index.scan].sort((a, b) => a.order - b.order);
  }

  private compute(event: EventName, list: Indexed[], matchOn: string | undefined): Plan | undefined {
    const seen = new Set<string>();
    const entries: HookEntry[] = [];
    let sequential = false;
    for (const h of list) {
      if (!h.match(matchOn) || seen.has(h.key)) continue;
      seen.add(h.key);
      entries.push(h.entry);
      if (h.entry.sequential === true) sequential = true;
    }
    return entries.length ? { event, entries, sequential } : undefined;
  }
}
