/**
 * Errors that say how to fix them: a hook command the shell could not start (exit 126: not
 * executable, 127: not found), and a timeout that looks written in the wrong unit.
 */

/** The file the shell named in its complaint (`bash: line 1: ./guard.sh: Permission denied`), else the command's first word. */
function fileOf(command: string, stderr: string): string {
  const m = /:\s*([^:\n]+?):\s*(?:Permission denied|No such file or directory|command not found|not found)/.exec(stderr);
  return (m?.[1] ?? command.trim().split(/\s+/)[0] ?? command).trim();
}

/** For exit status 126 or 127 with the shell's complaint: what went wrong and the fix; otherwise undefined. */
export function startFailure(command: string, exitCode: number | null, stderr: string): string | undefined {
  if (exitCode === 126 && /permission denied|cannot execute/i.test(stderr)) {
    const file = fileOf(command, stderr);
    return `${file}: not executable (exit 126) — run: chmod +x ${file}, or run it as: bash ${file}`;
  }
  if (exitCode === 127 && /not found|no such file/i.test(stderr)) {
    const file = fileOf(command, stderr);
    if (file.includes('/'))
      return `${file}: no such file (exit 127) — check the path; a relative path starts from the session folder, so write it as "$GEMINI_PROJECT_DIR/${file.replace(/^\.\//, '')}"`;
    return `${file}: command not found (exit 127) — install it, or give its full path`;
  }
  return undefined;
}

/** Below this, a Gemini settings timeout (milliseconds) was most likely meant in seconds. */
export const SMALL_MS = 100;
/** The fix for a millisecond timeout that looks like seconds, or undefined. */
export function msTimeoutHint(timeout: number | undefined): string | undefined {
  if (timeout === undefined || timeout <= 0 || timeout >= SMALL_MS) return undefined;
  return `"timeout" is in milliseconds: ${timeout} ms is probably meant as ${timeout} seconds — write ${timeout * 1000}`;
}
