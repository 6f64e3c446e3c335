import { shebangProblem } from '../run/which.js';

/**
 * Errors that say how to fix them: a hook command the shell could not start (exit 126: not
 * executable, 127: not found), and a timeout that looks written in the wrong unit.
 */

/** The file the shell named in its complaint (`bash: line 1: ./guard.sh: Permission denied`), else the command's first word. */
function fileOf(command: string, stderr: string): string {
  const m = /:\s*([^:\n]+?):\s*(?:Permission denied|No such file or directory|command not found|not found)/.exec(stderr);
  return (m?.[1] ?? command.trim().split(/\s+/)[0] ?? command).trim();
}

/** Why a script's `#!` line cannot start it (its words, else the shell's), with the fix. */
function interpreterHint(file: string, named?: string): string {
  const bad = shebangProblem(file);
  if (bad) return bad.replace(', which does not exist', ', which does not exist (exit 127)');
  return named
    ? `${file}: its #! line names ${named}, which cannot be found (exit 127) — install it, or change the #! line`
    : `${file}: the interpreter its #! line names cannot be found (exit 127) — check the #! line`;
}

/**
 * For exit status 126 or 127 with the shell's complaint: what went wrong and the fix; otherwise
 * undefined. `projectVar`: how the dialect names the project folder in a command, for a relative path.
 */
export function startFailure(
  command: string,
  exitCode: number | null,
  stderr: string,
  projectVar = '$GEMINI_PROJECT_DIR',
): string | undefined {
  if (exitCode === 126 && /permission denied|cannot execute/i.test(stderr)) {
    const file = fileOf(command, stderr);
    return `${file}: not executable (exit 126) — run: chmod +x ${file}, or run it as: bash ${file}`;
  }
  if (exitCode !== 127) return undefined;
  // The script is there; the interpreter its #! line names is not (bash 5.1+ words, then older ones).
  const noInterpreter = /:\s*([^:\n]+?):\s*cannot execute: required file not found/.exec(stderr);
  if (noInterpreter) return interpreterHint(noInterpreter[1].trim());
  const bad = /:\s*([^:\n]+?):\s*([^:\n]+?):\s*bad interpreter/.exec(stderr);
  if (bad) return interpreterHint(bad[1].trim(), bad[2].trim());
  if (/not found|no such file/i.test(stderr)) {
    const file = fileOf(command, stderr);
    if (/^[/$~]/.test(file)) return `${file}: no such file (exit 127) — check the path`;
    if (file.includes('/'))
      return `${file}: no such file (exit 127) — check the path; a relative path starts from the session folder, so write it as "${projectVar}/${file.replace(/^\.\//, '')}"`;
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
