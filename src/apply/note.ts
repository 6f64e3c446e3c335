/**
 * A hook's message for the model apart from the prompt and the tool results. A string is a
 * labelled hook message (Claude Code's): a system message where the provider takes one there,
 * else a user message marked as a reminder. `{user}` is a user message of its own, as written
 * (Copilot CLI's).
 */
export type Note = string | { user: string };

/** A note's text, wherever it is read. */
export function noteText(n: Note): string {
  return typeof n === 'string' ? n : n.user;
}
