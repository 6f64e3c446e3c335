/**
 * Session ids given from outside (`hookline fire --session-id`, an event's `session_id`,
 * `hookline agent --resume ID`) end up in file names, environment variables and, through
 * `$GEMINI_SESSION_ID`, in hook commands: they are held to letters, digits, `.`, `_` and `-`,
 * at most 128 characters, so no id can be read as a path, an option or shell code.
 */
export const SESSION_ID_MAX_LENGTH = 128;
const SESSION_ID = /^[A-Za-z0-9._-]+$/;

/** Why `id` is not a usable session id, in one line; undefined when it is. */
export function sessionIdProblem(id: string, label = 'session id'): string | undefined {
  if (id === '') return `${label} must not be empty`;
  if (id.length > SESSION_ID_MAX_LENGTH) return `${label} is ${id.length} characters long; at most ${SESSION_ID_MAX_LENGTH} are allowed`;
  if (!SESSION_ID.test(id) || /^[.-]/.test(id)) {
    const shown = JSON.stringify(id.length > 40 ? `${id.slice(0, 40)}…` : id);
    return `${label} ${shown} may hold only letters, digits, ".", "_" and "-" (not first: "." or "-")`;
  }
  return undefined;
}
