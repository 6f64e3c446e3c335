/** Where Hookline is installed in other agents, and whether each entry still reaches a working Hookline: for `list` and `doctor`. */
import fs from 'node:fs';
import { readLimitedText } from '../config/limits.js';
import { HOST_NAMES, type HostName } from './answers.js';
import { entriesIn, entryProblem, FORMATS, readSettings, relayUrlParts, type InstallScope } from './install.js';

export interface InstallStatus {
  agent: HostName;
  label: string;
  scope: InstallScope;
  file: string;
  entries: number;
  /** Events of the agent with no Hookline entry (an entry removed by hand). */
  missing: string[];
  /** Why entries would not run Hookline, one line each. */
  problems: string[];
  /** Entries that post to the server (Claude Code's http entries), and the port. */
  posted?: { entries: number; port: number };
}

export function installStatus(cwd: string, env: NodeJS.ProcessEnv = process.env): InstallStatus[] {
  const out: InstallStatus[] = [];
  for (const agent of HOST_NAMES)
    for (const scope of ['user', 'project'] as const) {
      const f = FORMATS[agent];
      const file = f.file(scope, cwd, env);
      if (scope === 'project' && file === f.file('user', cwd, env)) continue;
      let text: string;
      try {
        if (!fs.existsSync(file)) continue;
        text = readLimitedText(file);
      } catch {
        continue;
      }
      const read = readSettings(file, text);
      if ('problem' in read) continue;
      const entries = entriesIn(read.value);
      if (!entries.length) continue;
      const events = new Set(entries.map((e) => e.event));
      const posted = entries.map((e) => relayUrlParts(e.handler.url)).filter((u) => u !== undefined);
      const problems = [...new Set(entries.map((e) => entryProblem(e.handler)).filter((p): p is string => p !== undefined))];
      out.push({
        agent,
        label: f.label,
        scope,
        file,
        entries: entries.length,
        missing: f.events.filter((e) => !events.has(e)),
        ...(posted.length ? { posted: { entries: posted.length, port: posted[0]!.port } } : {}),
        problems: problems.map((p) => `${p} — run \`hookline install ${agent}${scope === 'project' ? ' --scope project' : ''}\` again`),
      });
    }
  return out;
}

/** One line per install, and a line per problem under it. */
export function installLines(list: InstallStatus[]): Array<{ ok: boolean; line: string }> {
  return list.flatMap((s) => {
    const head = `Hookline is installed in ${s.label} (${s.scope}, ${s.file}): ${s.entries} entr${s.entries === 1 ? 'y' : 'ies'}`;
    const ok = !s.problems.length;
    const via = s.posted ? ` (${s.posted.entries} post to its server at 127.0.0.1:${s.posted.port}, which the others start)` : '';
    return [
      { ok, line: ok ? `${head}, each runs Hookline${via}` : `${head}${via}` },
      ...s.problems.map((p) => ({ ok: false, line: `  ${p}` })),
      ...(s.missing.length ? [{ ok: true, line: `  no entry for ${s.missing.join(', ')} (those events do not reach Hookline)` }] : []),
    ];
  });
}
