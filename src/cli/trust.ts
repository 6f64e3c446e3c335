import path from 'node:path';
import { loadContext } from '../engine/index.js';
import { findWorkspaceHooks } from '../dialects/registry.js';
import { writeTrustedFolder } from '../trust/folders.js';
import { trustedKeys, trustKeys } from '../trust/fingerprints.js';
import { describeDialectHook } from '../trust/dialects.js';
import { resolveDir, UsageError } from './io.js';

/** `hookline trust [DIR]`: trusts the folder and every workspace hook of every hook system in it. */
export async function trust(dirArg: string | undefined, opts: { check?: boolean; json?: boolean }): Promise<number> {
  const dir = resolveDir(dirArg);
  const ctx = loadContext({ cwd: dir });
  const hooks = await findWorkspaceHooks(dir);
  const known = trustedKeys(dir);
  const untrusted = hooks.filter((h) => !known.has(h.key));
  const lines = untrusted.map((h) => `  - ${h.source === 'gemini' ? `${h.name} (${h.event}${h.matcher ? ` ${h.matcher}` : ''}): ${h.command ?? ''}` : describeDialectHook(h, dir)}`);
  const trusted = ctx.trust !== 'untrusted';
  if (opts.json && !opts.check) throw new UsageError('--json: only with --check — hookline trust --check --json');
  if (opts.check && opts.json) {
    const hooksOut = untrusted.map((h) => ({ name: h.name, event: h.event, matcher: h.matcher ?? null, source: h.source, file: h.file, command: h.command }));
    process.stdout.write(JSON.stringify({ folder: dir, trusted, untrusted: hooksOut }, null, 2) + '\n');
    return trusted && !untrusted.length ? 0 : 1;
  }
  if (opts.check) {
    process.stdout.write(`${dir}: folder ${trusted ? 'trusted' : 'not trusted'}\n`);
    process.stdout.write(lines.length ? `untrusted or changed hooks:\n${lines.join('\n')}\n` : trusted ? 'every workspace hook is trusted\n' : 'no new or changed hooks (they still need the folder to be trusted)\n');
    return trusted && !lines.length ? 0 : 1;
  }
  try {
    writeTrustedFolder(dir, 'TRUST_FOLDER');
    trustKeys(dir, hooks.map((h) => h.key));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  process.stdout.write(`trusted folder ${path.resolve(dir)}\n`);
  process.stdout.write(lines.length ? `trusted ${lines.length} new or changed hook(s):\n${lines.join('\n')}\n` : 'no new or changed hooks\n');
  return 0;
}
