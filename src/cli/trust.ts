import path from 'node:path';
import { loadContext } from '../engine/index.js';
import { allSystems, findWorkspaceHooks } from '../dialects/registry.js';
import { writeTrustedFolder } from '../trust/folders.js';
import { trustedKeys } from '../trust/fingerprints.js';
import { describeDialectHook, isDialectHookTrusted, trustWorkspaceHooks } from '../trust/dialects.js';
import { print, printJson, resolveDir, UsageError, warn } from './io.js';
import { changeDescriber } from '../trust/reviewed.js';

/** `hookline trust [DIR]`: trusts the folder and every workspace hook of every hook system in it. */
export async function trust(dirArg: string | undefined, opts: { check?: boolean; json?: boolean }): Promise<number> {
  const dir = resolveDir(dirArg);
  const ctx = loadContext({ cwd: dir });
  const hooks = await findWorkspaceHooks(dir);
  const known = trustedKeys(dir);
  const pending = hooks.filter((h) => !isDialectHookTrusted(h, known));
  const describeChange = changeDescriber(dir);
  const changes = pending.map((h) => (h.key ? describeChange(h) : undefined));
  // A hook two dialects read is trusted under both keys, and listed once, by its own file's dialect.
  const lines = pending.flatMap((h, i) => (h.shared ? [] : [`  - ${describeDialectHook(h, dir, changes[i])}`]));
  const unkeyed = pending.filter((h) => !h.key && !h.shared).length;
  const trusted = ctx.trust !== 'untrusted';
  if (opts.json && !opts.check) throw new UsageError('--json: only with --check — hookline trust --check --json');
  // Systems that keep records of their own (Codex): the hooks those records hold back.
  const own = (await allSystems()).flatMap((s) => (s.ownTrust ? [{ name: s.name, own: s.ownTrust }] : []));
  const ownPending = own.flatMap((s) => s.own.pending(dir, process.env).map((line) => ({ system: s.name, line })));
  if (opts.check && opts.json) {
    const hooksOut = pending.flatMap((h, i) =>
      h.shared
        ? []
        : [
            {
              name: h.name,
              event: h.event,
              matcher: h.matcher ?? null,
              source: h.source,
              file: h.file,
              command: h.command,
              details: h.review?.details ?? [],
              reads: h.review?.reads ?? [],
              change: changes[i] ?? h.problem ?? null,
            },
          ],
    );
    const recordsOut = ownPending.map((p) => ({ source: p.system, hook: p.line }));
    printJson({ folder: dir, trusted, untrusted: hooksOut, unrecorded: recordsOut });
    return trusted && !hooksOut.length && !ownPending.length ? 0 : 1;
  }
  if (opts.check) {
    print(`${dir}: folder ${trusted ? 'trusted' : 'not trusted'}`);
    print(
      lines.length
        ? `untrusted or changed hooks:\n${lines.join('\n')}`
        : trusted
          ? 'every workspace hook is trusted'
          : 'no new or changed hooks (they still need the folder to be trusted)',
    );
    if (ownPending.length)
      print(`hooks without a trust record of their own agent:\n${ownPending.map((p) => `  - ${p.system}: ${p.line}`).join('\n')}`);
    return trusted && !lines.length && !ownPending.length ? 0 : 1;
  }
  let recorded: Array<{ system: string; line: string }>;
  try {
    writeTrustedFolder(dir, 'TRUST_FOLDER');
    trustWorkspaceHooks(dir, hooks);
    recorded = own.flatMap((s) => s.own.trust(dir, process.env).map((line) => ({ system: s.name, line })));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  print(`trusted folder ${path.resolve(dir)}`);
  print(lines.length ? `trusted ${lines.length - unkeyed} new or changed hook(s):\n${lines.join('\n')}` : 'no new or changed hooks');
  if (recorded.length)
    print(`recorded as reviewed in their agent's own trust records:\n${recorded.map((r) => `  - ${r.system}: ${r.line}`).join('\n')}`);
  if (unkeyed) warn(`${unkeyed} hook(s) not trusted: a file they run is missing or unreadable (marked above); they stay held back`);
  return unkeyed ? 1 : 0;
}
