import { HookEngine } from '../engine.js';
import { displayName } from '../config/schema.js';
import { disableAll, disableHook, enableAll, enableHook } from '../config/write.js';
import { resolveDir, warn } from './io.js';

function engineFor(cwd: string | undefined): HookEngine {
  return new HookEngine({ cwd: resolveDir(cwd), watchConfig: false });
}

function names(engine: HookEngine): string[] {
  return engine.hooks().filter((e) => e.source !== 'runtime').map((e) => displayName(e.hook));
}

export function setHook(name: string, enabled: boolean, opts: { cwd?: string }): void {
  const engine = engineFor(opts.cwd);
  if (!names(engine).includes(name)) warn(`no configured hook is named "${name}" (names: ${[...new Set(names(engine))].join(', ') || 'none'})`);
  const msg = enabled ? enableHook(name, engine.projectDir) : disableHook(name, engine.projectDir);
  process.stdout.write(msg + '\n');
}

export function setAll(enabled: boolean, opts: { cwd?: string }): void {
  const engine = engineFor(opts.cwd);
  const msg = enabled ? enableAll(engine.projectDir, names(engine)) : disableAll(engine.projectDir, names(engine));
  process.stdout.write(msg + '\n');
}
