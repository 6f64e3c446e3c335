import { loadContext } from '../engine/index.js';
import { displayName } from '../config/schema.js';
import { disableAll, disableHook, enableAll, enableHook, readDisabled } from '../config/write.js';
import { systemSettingsPath } from '../config/paths.js';
import { closestName } from '../config/suggest.js';
import { resolveDir, UsageError, warn, print } from './io.js';

function settingsNames(cwd: string | undefined): { projectDir: string; names: string[]; unreadable: boolean } {
  const ctx = loadContext({ cwd: resolveDir(cwd) });
  // A settings file that cannot be read hides its hooks' names: its own error comes first.
  const unreadable = ctx.config.problems.some((p) => p.severity === 'error' && p.path === '');
  return { projectDir: ctx.projectDir, names: ctx.config.entries.map((e) => displayName(e.hook)), unreadable };
}

/** A settings file that cannot be read or written is a one-line error, not a stack trace. */
function settingsWrite(change: () => string): string {
  try {
    return change();
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

export function setHook(name: string, enabled: boolean, opts: { cwd?: string }): void {
  const { projectDir, names, unreadable } = settingsNames(opts.cwd);
  if (!unreadable && !names.includes(name) && !(enabled && isDisabledSomewhere(name, projectDir))) {
    const unique = [...new Set(names)];
    const hint = closestName(name, unique);
    const fix = hint
      ? `did you mean "${hint}"? (hooks: ${unique.join(', ')})`
      : unique.length
        ? `give one of: ${unique.join(', ')} (hookline list shows them)`
        : 'no hook is configured here; hookline list shows what there is';
    throw new UsageError(`${name}: no configured hook has this name, nothing written — ${fix}`);
  }
  const msg = settingsWrite(() => (enabled ? enableHook(name, projectDir) : disableHook(name, projectDir)));
  print(msg);
  if (enabled) warnSystemDisabled([name]);
}

export function setAll(enabled: boolean, opts: { cwd?: string }): void {
  const { projectDir, names } = settingsNames(opts.cwd);
  const msg = settingsWrite(() => (enabled ? enableAll(projectDir, names) : disableAll(projectDir, names)));
  print(msg);
  if (enabled) warnSystemDisabled(names);
}

/** A stale name in a disabled list may still be enabled (removed). */
function isDisabledSomewhere(name: string, projectDir: string): boolean {
  return loadContext({ cwd: projectDir }).config.disabled.includes(name);
}

/** The system settings are not Hookline's to change: say when they keep a hook disabled. */
function warnSystemDisabled(wanted: string[]): void {
  const file = systemSettingsPath();
  let still: string[];
  try {
    const disabled = new Set(readDisabled(file));
    still = [...new Set(wanted)].filter((n) => disabled.has(n));
  } catch {
    return;
  }
  if (still.length) warn(`still disabled by the system settings (${file}), which hookline does not change: ${still.join(', ')}`);
}
