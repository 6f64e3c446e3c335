import type { HookOutput } from '../events/output.js';
import { isBlocking } from '../decide/aggregate.js';

export { isBlocking };

/** `stopReason || reason || 'No reason provided'`, the text shown when a hook stops or blocks. */
export function effectiveReason(o: HookOutput): string {
  return (typeof o.stopReason === 'string' && o.stopReason) || (typeof o.reason === 'string' && o.reason) || 'No reason provided';
}

export function stops(o: HookOutput | undefined): boolean {
  return o?.continue === false;
}

export function specific(o: HookOutput | undefined): Record<string, unknown> {
  const s = o?.hookSpecificOutput;
  return s && typeof s === 'object' && !Array.isArray(s) ? s : {};
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Hook context is escaped so a hook cannot close the `<hook_context>` tag it is wrapped in. */
export function escapeContext(text: string): string {
  return text.replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function additionalContext(o: HookOutput | undefined): string | undefined {
  const c = specific(o).additionalContext;
  return typeof c === 'string' ? escapeContext(c) : undefined;
}

export function systemMessage(o: HookOutput | undefined): string | undefined {
  return o && typeof o.systemMessage === 'string' && o.systemMessage && !o.suppressOutput ? o.systemMessage : undefined;
}
