/** mm's display lines ("Affichage") and failure line ("Échecs"). */
import type { MmEvent } from './events.js';
import { visible } from '../../config/display.js';

/**
 * `🪝 <n>. <event> [<tool or agent>] · <command> → <decision>`. The tool or agent part, with its
 * brackets, is there only for the events that have one (tool and ask events).
 */
export function mmDisplayLine(n: number, event: MmEvent, target: string | undefined, command: string, decision: string): string {
  return `🪝 ${n}. ${event}${target !== undefined ? ` [${visible(target)}]` : ''} · ${visible(command)} → ${decision}`;
}

/** ``🪝 <event> hook `<command>`: <failure>``. */
export function mmFailureLine(event: MmEvent, command: string, failure: string): string {
  return `🪝 ${event} hook \`${visible(command)}\`: ${failure}`;
}

/** A context's length as the display counts it: characters, not bytes. */
export function charCount(s: string): number {
  return [...s].length;
}
