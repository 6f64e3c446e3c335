import path from 'node:path';
import { HookEngine } from '../engine.js';
import { displayName } from '../config/schema.js';
import { writeTrustedFolder } from '../trust/folders.js';
import { trustedKeys, trustHooks, trustKeys, untrustedHooks } from '../trust/fingerprints.js';
import { describeDialectHook } from '../trust/dialects.js';
import { resolveDir, UsageError, warn } from './io.js';
import { visible } from '../config/display.js';

/** Says on stderr which workspace hooks will not run here, and how to change that. */
export function reportHeld(engine: HookEngine): void {
  for (const w of engine.pendingWarnings) warn(w);
  const folder = engine.heldBack.filter((h) => h.reason === 'untrusted-folder');
  const hooks = engine.heldBack.filter((h) => h.reason === 'untrusted-hook');
  if (folder.length) {
    warn(`${engine.projectDir} is not a trusted folder: its ${folder.length} workspace hook(s) do not run. Review .gemini/settings.json, then run: hookline trust ${JSON.stringify(engine.projectDir)}`);
  }
  if (hooks.length) {
    warn(`new or changed workspace hook(s) held back until trusted (run: hookline trust):\n${hooks.map((h) => `  - ${displayName(h.entry.hook)} (${h.entry.event}, ${h.entry.path})`).join('\n')}`);
  }
}

export async function trust(dirArg: string | undefined, opts: { check?: boolean }): Promise<number> {
  const dir = resolveDir(dirArg);
  const engine = new HookEngine({ cwd: dir, watchConfig: false });
  const pending = untrustedHooks(dir, engine.loaded.entries);
  // Loaded on demand: `hookline fire` imports this module and must not pay for YAML and RE2.
  const { findDialectHooks } = await import('../dialects/workspace.js');
  const dialect = findDialectHooks(dir);
  const known = trustedKeys(dir);
  const lines = [
    ...pending.map((e) => `  - ${visible(displayName(e.hook))} (${e.event}${e.matcher ? ` ${visible(e.matcher)}` : ''}): ${e.hook.type === 'command' ? visible(e.hook.command) : ''}`),
    ...dialect.filter((h) => !known.has(h.key)).map((h) => `  - ${describeDialectHook(h, dir)}`),
  ];
  if (opts.check) {
    process.stdout.write(`${visible(dir)}: folder ${engine.trustedFolder ? 'trusted' : 'not trusted'}\n`);
    process.stdout.write(lines.length ? `untrusted or changed hooks:\n${lines.join('\n')}\n` : engine.trustedFolder ? 'every workspace hook is trusted\n' : 'no new or changed hooks (they still need the folder to be trusted)\n');
    return engine.trustedFolder && !lines.length ? 0 : 1;
  }
  try {
    writeTrustedFolder(dir, 'TRUST_FOLDER');
    trustHooks(dir, engine.loaded.entries);
    trustKeys(dir, dialect.map((h) => h.key));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  process.stdout.write(`trusted folder ${visible(path.resolve(dir))}\n`);
  process.stdout.write(lines.length ? `trusted ${lines.length} new or changed hook(s):\n${lines.join('\n')}\n` : 'no new or changed hooks\n');
  return 0;
}
