import { hookKey, SOURCE_PRIORITY, type HookEntry } from '../config/schema.js';
import type { EventName } from '../events/names.js';
import { compileMatcher, type CompiledMatcher } from './matcher.js';

export interface Plan {
  event: EventName;
  entries: HookEntry[];
  sequential: boolean;
}

interface Indexed {
  entry: HookEntry;
  match: CompiledMatcher;
  key: string;
}

/**
 * Hooks indexed per event with matchers compiled once, so planning an event is a filter over a
 * short array (empty for events nobody hooks).
 */
export class Planner {
  private byEvent = new Map<EventName, Indexed[]>();
  /** Plans by event and matched value: agents fire the same few tool names over and over. */
  private memo = new Map<string, Plan | undefined>();

  constructor(entries: readonly HookEntry[]) {
    const sorted = [...entries].sort((a, b) => SOURCE_PRIORITY[a.source] - SOURCE_PRIORITY[b.source]);
    for (const entry of sorted) {
      if (!entry.enabled) continue;
      let list = this.byEvent.get(entry.event);
      if (!list) this.byEvent.set(entry.event, (list = []));
      list.push({ entry, match: compileMatcher(entry.event, entry.matcher), key: hookKey(entry.hook) });
    }
  }

  has(event: EventName): boolean {
    return this.byEvent.has(event);
  }

  /** Enabled hooks for the event, matched, deduplicated by `name:command` (first wins). */
  plan(event: EventName, matchOn: string | undefined): Plan | undefined {
    const list = this.byEvent.get(event);
    if (!list) return undefined;
    const key = matchOn === undefined ? event : `${event}\0${matchOn}`;
    const hit = this.memo.get(key);
    if (hit !== undefined || this.memo.has(key)) return hit;
    if (this.memo.size > 1000) this.memo.clear();
    const plan = this.compute(event, list, matchOn);
    this.memo.set(key, plan);
    return plan;
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
