/** `hookline install AGENT` and `hookline uninstall AGENT`: Hookline's entries in another agent's own file. */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline/promises';
import { createTwoFilesPatch } from 'diff';
import { parseConfigText } from '../dialects/convert/index.js';
import { readHooks } from '../dialects/convert/read.js';
import { claudeEventFor } from '../dialects/claude/translate.js';
import { isEventName } from '../events/names.js';
import { COPILOT_RELAYED } from '../relay/copilot.js';
import { claudeSettingsPaths } from '../dialects/claude/config.js';
import { codexHome } from '../dialects/codex/config.js';
import { projectSettingsPath, userSettingsPath } from '../config/paths.js';
import { HOST_NAMES, HOSTS, type HostName } from '../relay/hosts.js';
import { parseSources } from '../relay/run.js';
import type { Source } from '../relay/relay.js';
import { FORMATS, relayScript, shellScript, COMMAND_EVENTS, type InstallScope } from '../relay/install.js';
import { install, installedPort, planInstall, uninstall } from '../relay/installs.js';
import { canTellLoopbackPeers } from '../serve/peer.js';
import { freePort } from '../serve/relay-http.js';
import { print } from './io.js';
import { visible } from '../config/display.js';
import { UsageError } from './io.js';

export interface InstallCliOptions {
  scope?: string;
  dryRun?: boolean;
  yes?: boolean;
  hooksFrom?: string;
  transport?: string;
  port?: string;
}

/**
 * How the entries reach the warm server: over loopback where the server can tell which user
 * connects (Linux; Claude Code's http entries, and the shell client for command entries), else a
 * Node client per event over the Unix socket.
 */
function transportOf(opts: InstallCliOptions): 'loopback' | 'socket' {
  const t = opts.transport;
  if (t !== undefined && t !== 'loopback' && t !== 'socket') throw new UsageError(`--transport ${t}: give loopback or socket`);
  if (t === 'loopback' && !canTellLoopbackPeers())
    throw new UsageError(
      '--transport loopback: this system cannot tell which user connects over loopback (no /proc/net/tcp), so the server would answer anyone — use --transport socket',
    );
  const chosen = t ?? (canTellLoopbackPeers() ? 'loopback' : 'socket');
  if (opts.port !== undefined && chosen !== 'loopback')
    throw new UsageError('--port is the loopback port: drop it with --transport socket');
  return chosen;
}

function portOf(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1024 || n > 65535) throw new UsageError(`--port ${v}: give a port from 1024 to 65535`);
  return n;
}

function agentOf(agent: string): HostName {
  if (!(HOST_NAMES as readonly string[]).includes(agent))
    throw new UsageError(`unknown agent "${agent}" — give one of ${HOST_NAMES.join(', ')}`);
  return agent as HostName;
}

function scopeOf(scope: string | undefined): InstallScope {
  if (scope === undefined || scope === 'user') return 'user';
  if (scope === 'project') return 'project';
  throw new UsageError(`--scope ${scope}: give user or project`);
}

/** The files of a source's hooks the relay runs in `agent`, and the dialect `convert` reads them as. */
function sourceFiles(agent: HostName, source: Source, cwd: string): { dialect: string; files: string[] } {
  if (source === 'claude') {
    // The Claude Code files the agent reads itself (Copilot CLI: the project's) are its own, not the relay's.
    const own = new Set(HOSTS[agent].claudeFilesItReads?.(cwd) ?? []);
    return {
      dialect: 'claude',
      files: claudeSettingsPaths(cwd)
        .map((p) => p.file)
        .filter((f) => !own.has(f)),
    };
  }
  if (source === 'codex')
    return { dialect: 'codex', files: [path.join(codexHome(), 'hooks.json'), path.join(cwd, '.codex', 'hooks.json')] };
  return { dialect: 'gemini', files: [userSettingsPath(), projectSettingsPath(cwd)] };
}

/**
 * The Claude Code events (the names every dialect's events map to) the relay fires in an agent:
 * Copilot CLI's events are run as Claude Code's (relay/copilot.ts), Gemini CLI's stand for theirs.
 */
function relayedEvents(agent: HostName): Set<string> {
  if (agent === 'copilot') return new Set(Object.values(COPILOT_RELAYED));
  if (agent === 'gemini')
    return new Set(FORMATS.gemini.events.flatMap((e) => (isEventName(e) ? [claudeEventFor(e)] : [])).filter((e) => e !== undefined));
  return new Set(FORMATS[agent].events);
}

/**
 * The hooks of a file that never run in the agent: the relay runs each of its events, so a hook
 * runs there when its event is, or stands for, one of those. Nothing else is lost: the relay runs
 * the hooks as their own system runs them (its variables, names and timeouts).
 */
function hookLosses(agent: HostName, dialect: string, text: string): string[] {
  const relayed = relayedEvents(agent);
  return readHooks(dialect, parseConfigText(dialect, text))
    .hooks.filter((h) => {
      const claude = dialect === 'gemini' ? (isEventName(h.event) ? claudeEventFor(h.event) : undefined) : h.event;
      return !claude || !relayed.has(claude);
    })
    .map((h) => `${h.at}: ${FORMATS[agent].label} has no event for ${dialect}'s ${h.event}; it never runs there`);
}

/** What the agent cannot run of the hooks the relay will run in it, one line each. */
function losses(agent: HostName, sources: readonly Source[], cwd: string): string[] {
  const out: string[] = [];
  for (const source of sources) {
    const { dialect, files } = sourceFiles(agent, source, cwd);
    if (dialect === agent) continue;
    for (const file of files) {
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch {
        continue;
      }
      try {
        for (const n of hookLosses(agent, dialect, text)) out.push(`${file}: ${n}`);
      } catch (e) {
        out.push(`${file}: ${(e as Error).message.split('\n')[0]}`);
      }
    }
  }
  return out;
}

/** What the agent needs before it runs the entries, when it would not run them as installed. */
function stillNeeded(agent: HostName, scope: InstallScope): string[] {
  if (scope !== 'project') return [];
  if (agent === 'codex')
    return [
      'Codex loads a project\'s hooks only once it trusts the project: accept its trust prompt, or add [projects."<this folder>"] trust_level = "trusted" to ~/.codex/config.toml',
    ];
  if (agent === 'copilot')
    return [
      "Copilot CLI runs a repository's hooks only in a folder it trusts: accept its folder trust prompt (in `copilot -p`, add --trust-folder), or install with --scope user",
    ];
  if (agent === 'gemini')
    return [
      "Gemini CLI runs a project's hooks only in a folder it trusts: trust this folder in Gemini CLI (its trust prompt, or /permissions) or install with --scope user",
    ];
  return ["Claude Code runs a project's hooks once you accept its trust prompt for this folder"];
}

async function confirmed(question: string): Promise<boolean> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

export async function installCommand(agentName: string, opts: InstallCliOptions): Promise<number> {
  const agent = agentOf(agentName);
  const scope = scopeOf(opts.scope);
  const cwd = process.cwd();
  const parsed = parseSources(opts.hooksFrom, agent);
  if ('problem' in parsed)
    throw new UsageError(
      opts.hooksFrom === undefined && agent === 'gemini'
        ? `Gemini CLI already runs your Hookline hooks itself (they are in its settings files): give --hooks-from claude (or codex) to run Claude Code's (or Codex's) hooks in it with Hookline's guarantees`
        : parsed.problem,
    );
  for (const f of [relayScript(), shellScript()])
    if (!fs.existsSync(f)) throw new Error(`${f} is missing: build Hookline first (npm run build)`);
  const hooksFrom = opts.hooksFrom === undefined ? [] : parsed.sources;
  const port =
    transportOf(opts) === 'loopback'
      ? opts.port !== undefined
        ? portOf(opts.port)
        : (installedPort(agent, scope, cwd, process.env) ??
          (await freePort(`${agent}\0${scope}\0${scope === 'project' ? cwd : ''}\0${process.env.HOME ?? ''}`)))
      : undefined;
  const choice = { hooksFrom, ...(port !== undefined ? { port } : {}) };
  const plan = planInstall(agent, scope, cwd, choice, process.env);
  const label = FORMATS[agent].label;
  if (plan.same) {
    print(`Hookline is already installed in ${label} (${visible(plan.file)}); nothing changed`);
    return 0;
  }
  const shown = path.relative(cwd, plan.file).startsWith('..') ? plan.file : path.relative(cwd, plan.file);
  process.stdout.write(createTwoFilesPatch(shown, shown, plan.before ?? '', plan.after, plan.before === null ? '(new file)' : '', ''));
  for (const l of losses(agent, parsed.sources, cwd)) print(`! ${label} cannot run: ${visible(l)}`);
  // The other file the install changes: Codex runs a hook only once its review record matches it.
  if (agent === 'codex')
    print(
      `and in ${visible(path.join(codexHome(), 'config.toml'))}: Hookline's ${FORMATS.codex.events.length} entries recorded as reviewed ([hooks.state."…"] trusted_hash), as Codex's /hooks review would; uninstall takes them out`,
    );
  if (opts.dryRun) {
    print(`dry run: ${visible(plan.file)} not changed`);
    return 0;
  }
  if (!opts.yes) {
    if (!process.stdin.isTTY) throw new UsageError(`add --yes to write this change to ${plan.file} (or --dry-run to see it only)`);
    if (!(await confirmed(`Write this to ${plan.file}? [y/N] `))) {
      print('not changed');
      return 1;
    }
  }
  const done = install(agent, scope, cwd, choice, process.env);
  print(
    done.changed
      ? `Hookline installed in ${label}: ${FORMATS[agent].events.length} entries in ${visible(done.file)} (the file before is kept in ${visible(done.record ?? '')}; hookline uninstall ${agent}${scope === 'project' ? ' --scope project' : ''} puts it back)`
      : `Hookline is already installed in ${label} (${visible(done.file)}); nothing changed`,
  );
  if (done.changed && port !== undefined)
    print(
      agent === 'claude'
        ? `note: ${label} posts its events to Hookline's server at 127.0.0.1:${port}; its ${[...COMMAND_EVENTS].join(', ')} entries run the relay, which starts that server and checks it is yours`
        : `note: the entries hand each event to Hookline's server at 127.0.0.1:${port}, which the first event starts`,
    );
  for (const l of stillNeeded(agent, scope)) print(`note: ${l}`);
  return 0;
}

export async function uninstallCommand(agentName: string, opts: InstallCliOptions): Promise<number> {
  const agent = agentOf(agentName);
  const scope = scopeOf(opts.scope);
  const label = FORMATS[agent].label;
  const r = uninstall(agent, scope, process.cwd(), process.env);
  if (r.how === 'restored') print(`Hookline uninstalled from ${label}: ${visible(r.file)} is back as it was before the install`);
  else if (r.how === 'removed')
    print(
      `Hookline uninstalled from ${label}: ${visible(r.file)} changed since the install, so only Hookline's ${r.entries} entries were removed; the rest stays as it is now`,
    );
  else print(`Hookline is not installed in ${label} (${visible(r.file)}); nothing changed`);
  return 0;
}
