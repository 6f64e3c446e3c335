import { HookEngine } from '../engine.js';
import { displayName } from '../config/schema.js';
import { disableAll, disableHook, enableAll, enableHook, readDisabled } from '../config/write.js';
import { systemSettingsPath } from '../config/paths.js';
import { resolveDir, UsageError, warn } from './io.js';

function engineFor(cwd: string | undefined): HookEngine {
  return new HookEngine({ cwd: resolveDir(cwd), watchConfig: false });
}

function names(engine: HookEngine): string[] {
  return engine.hooks().filter((e) => e.source !== 'runtime').map((e) => displayName(e.hook));
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
  const engine = engineFor(opts.cwd);
  if (!names(engine).includes(name)) warn(`no configured hook is named "${name}" (names: ${[...new Set(names(engine))].join(', ') || 'none'})`);
  const msg = settingsWrite(() => (enabled ? enableHook(name, engine.projectDir) : disableHook(name, engine.projectDir)));
  process.stdout.write(msg + '\n');
  if (enabled) warnSystemDisabled([name]);
}

export function setAll(enabled: boolean, opts: { cwd?: string }): void {
  const engine = engineFor(opts.cwd);
  const msg = settingsWrite(() => (enabled ? enableAll(engine.projectDir, names(engine)) : disableAll(engine.projectDir, names(engine))));
  process.stdout.write(msg + '\n');
  if (enabled) warnSystemDisabled(names(engine));
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
