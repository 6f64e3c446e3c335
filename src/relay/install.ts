/**
 * Hookline's entries in another agent's own configuration, as text changes: one entry per event
 * the agent has, in its format, appended after the user's own (so nothing of theirs moves), and
 * found again by the command they run. Pure functions over the file's text; the transaction
 * (lock, backup, record) is in installs.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyEdits, modify, parseTree, findNodeAtLocation, type Node } from 'jsonc-parser';
import { parse as parseWords, quote } from 'shell-quote';
import { CLAUDE_EVENTS } from '../dialects/claude/events.js';
import { CODEX_EVENTS } from '../dialects/codex/events.js';
import { codexHome } from '../dialects/codex/config.js';
import { copilotHome } from '../dialects/copilot/config.js';
import { EVENT_NAMES } from '../events/names.js';
import { projectSettingsPath, userSettingsPath } from '../config/paths.js';
import { parseJsonc } from '../config/jsonc.js';
import { denyAnswer, GUARDS, type HostName } from './answers.js';
import { COPILOT_RELAY_EVENTS } from './copilot.js';
import { RELAY_PATH } from '../serve/relay-http.js';

export type InstallScope = 'user' | 'project';

/** How Hookline writes itself into one agent's file. */
interface InstallFormat {
  label: string;
  events: readonly string[];
  file(scope: InstallScope, cwd: string, env: NodeJS.ProcessEnv): string;
  /** One handler: the relay command, with the agent's own timeout unit and fail-closed switch. */
  handler(command: string, event: string): Record<string, unknown>;
  /** What the relay's command adds on a guard event so that the agent refuses it when the relay cannot start at all. */
  guardSuffix(event: string): string;
  /** Entries stand in the event's list themselves (Copilot CLI's own form), not in a `{"hooks": [...]}` group. */
  flat?: boolean;
  /** Fields a file the install creates starts with. */
  newFile?: Record<string, unknown>;
  /** An entry that posts the event to Hookline's server instead (Claude Code's `http` hooks). */
  web?(url: string, event: string): Record<string, unknown>;
}

/** What an install writes: whose hooks the relay runs, and the port of http entries (Claude Code), if any. */
export interface InstallChoice {
  hooksFrom: readonly string[];
  port?: number;
}

/**
 * Claude Code's events whose entries stay commands when the rest post over http. SessionStart and
 * UserPromptSubmit start the server the http entries post to (once a session, and again each
 * prompt, so a server gone meanwhile is back before the turn's tool calls). The guards check,
 * as an http hook cannot, that what answers on the port is this user's server: a guard is never
 * answered by another user's program that took the port while the server was gone.
 */
export const COMMAND_EVENTS: ReadonlySet<string> = new Set(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest']);

/** Seconds the agent gives the relay; the relay's own deadline is a little shorter, so it answers first. */
export const ENTRY_TIMEOUT_S = 60;
export const RELAY_DEADLINE_S = 55;

function claudeFolder(env: NodeJS.ProcessEnv): string {
  return env.CLAUDE_CONFIG_DIR ? path.resolve(env.CLAUDE_CONFIG_DIR) : path.join(env.HOME || os.homedir(), '.claude');
}

export const FORMATS: Readonly<Record<HostName, InstallFormat>> = {
  claude: {
    label: 'Claude Code',
    events: CLAUDE_EVENTS,
    file: (scope, cwd, env) =>
      scope === 'user' ? path.join(claudeFolder(env), 'settings.json') : path.join(cwd, '.claude', 'settings.json'),
    // Claude Code 2.1.295+ refuses the action when a hook marked onFailure "block" fails (exit, crash, timeout).
    handler: (command, event) => ({
      type: 'command',
      command,
      timeout: ENTRY_TIMEOUT_S,
      ...(GUARDS.claude.has(event) ? { onFailure: 'block' } : {}),
    }),
    // Claude Code refuses a guarded action as well when an http hook cannot be asked (no server, refused, timeout).
    web: (url, event) => ({
      type: 'http',
      url,
      timeout: ENTRY_TIMEOUT_S,
      ...(GUARDS.claude.has(event) ? { onFailure: 'block' } : {}),
    }),
    guardSuffix: () => '',
  },
  codex: {
    label: 'Codex',
    events: CODEX_EVENTS,
    file: (scope, cwd, env) => (scope === 'user' ? path.join(codexHome(env), 'hooks.json') : path.join(cwd, '.codex', 'hooks.json')),
    handler: (command) => ({ type: 'command', command, timeout: ENTRY_TIMEOUT_S }),
    // Codex lets an action go on when a hook fails; exit 2 is its refusal.
    guardSuffix: () => ' || exit 2',
  },
  // Hookline's own file in Copilot CLI's hooks folder (the user's needs no folder trust), in Copilot's own form.
  copilot: {
    label: 'Copilot CLI',
    events: COPILOT_RELAY_EVENTS,
    file: (scope, cwd, env) =>
      scope === 'user' ? path.join(copilotHome(env), 'hooks', 'hookline.json') : path.join(cwd, '.github', 'hooks', 'hookline.json'),
    handler: (command) => ({ type: 'command', bash: command, timeoutSec: ENTRY_TIMEOUT_S }),
    // Copilot CLI refuses a tool call or a permission when the hook exits non-zero (not on a timeout, which the
    // relay's own deadline comes before); a prompt it lets through, so there the refusal is printed.
    guardSuffix: (event) =>
      event === 'userPromptSubmitted'
        ? ` || printf '%s\\n' ${quote([JSON.stringify(denyAnswer('copilot', event, 'Hookline could not start; refused to be safe'))])}`
        : '',
    flat: true,
    newFile: { version: 1 },
  },
  gemini: {
    label: 'Gemini CLI',
    events: EVENT_NAMES,
    file: (scope, cwd, env) => (scope === 'user' ? userSettingsPath(env) : projectSettingsPath(cwd)),
    handler: (command) => ({ type: 'command', name: 'hookline', command, timeout: ENTRY_TIMEOUT_S * 1000 }),
    // Gemini CLI lets an action go on when a hook fails; exit 2 is its refusal.
    guardSuffix: () => ' || exit 2',
  },
};

/** The light client entries run (dist/bin/relay.cjs of this Hookline). */
export function relayScript(): string {
  return fileURLToPath(new URL('../../dist/bin/relay.cjs', import.meta.url));
}

/** The shell client beside it (relay.sh): what command entries run where the server is reached over loopback. */
export function shellScript(script = relayScript()): string {
  return path.join(path.dirname(script), 'relay.sh');
}

/** The bash the shell client runs with, when this machine has one where agents find it. */
export function bashPath(): string | undefined {
  for (const p of ['/bin/bash', '/usr/bin/bash', '/usr/local/bin/bash'])
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return p;
    } catch {}
  return undefined;
}

/**
 * What an entry runs, by absolute path (the agent's PATH is its own): with a loopback `port`, bash
 * and the shell client (which falls back to this Node's relay.cjs), else this Node and relay.cjs.
 */
export function relayCommand(
  host: HostName,
  event: string,
  hooksFrom: readonly string[],
  node = process.execPath,
  script = relayScript(),
  port?: number,
  bash = bashPath(),
): string {
  const guard = GUARDS[host].has(event);
  // The event is named (Copilot CLI's input does not name it; an unreadable input of a guard is refused by it).
  const flags = [
    '--event',
    event,
    ...(hooksFrom.length ? ['--hooks-from', hooksFrom.join(',')] : []),
    ...(port !== undefined ? ['--http-port', String(port)] : []),
  ];
  const words =
    port !== undefined && bash
      ? [bash, shellScript(script), node, host, ...flags, ...(guard ? ['--guard'] : [])]
      : [node, script, host, ...flags];
  return `${quote(words)}${guard ? FORMATS[host].guardSuffix(event) : ''}`;
}

/** The words of a relay command, when `command` is one: Node, the relay script, the agent (and the shell, for the shell client). */
export function relayWords(
  command: unknown,
): { node: string; script: string; host: string; hooksFrom: string[]; port?: number; shell?: string } | undefined {
  if (typeof command !== 'string' || !/relay\.(cjs|sh)/.test(command)) return undefined;
  // Only the relay's own words: a shell operator after them (a guard's `||`) ends them.
  const words: string[] = [];
  for (const w of parseWords(command)) {
    if (typeof w !== 'string') break;
    words.push(w);
  }
  const at = words.findIndex((w) => path.basename(w) === 'relay.cjs' || path.basename(w) === 'relay.sh');
  const shell = at >= 1 && path.basename(words[at]!) === 'relay.sh';
  const [node, host] = shell ? [words[at + 1], words[at + 2]] : [words[at - 1], words[at + 1]];
  if (at < 1 || !node || !host) return undefined;
  const from = words.indexOf('--hooks-from', at);
  const port = Number(words[words.indexOf('--http-port', at) + 1]);
  return {
    node,
    script: words[at]!,
    host,
    hooksFrom: from === -1 ? [] : (words[from + 1] ?? '').split(','),
    ...(words.includes('--http-port') && Number.isInteger(port) ? { port } : {}),
    ...(shell ? { shell: words[at - 1]! } : {}),
  };
}

/** Where an http entry posts: Hookline's server on loopback, the agent in the path, the sources in the query. */
export function relayUrl(host: HostName, port: number, hooksFrom: readonly string[]): string {
  return `http://127.0.0.1:${port}${RELAY_PATH}${host}${hooksFrom.length ? `?from=${hooksFrom.join(',')}` : ''}`;
}

/** The parts of a Hookline http entry's url, when `url` is one. */
export function relayUrlParts(url: unknown): { port: number; host: string; hooksFrom: string[] } | undefined {
  if (typeof url !== 'string') return undefined;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' || u.hostname !== '127.0.0.1' || !u.pathname.startsWith(RELAY_PATH) || !u.port) return undefined;
  const from = u.searchParams.get('from');
  return { port: Number(u.port), host: u.pathname.slice(RELAY_PATH.length), hooksFrom: from ? from.split(',') : [] };
}

/** The handler Hookline writes for one event. */
export function handlerFor(host: HostName, event: string, choice: InstallChoice): Record<string, unknown> {
  const f = FORMATS[host];
  if (choice.port !== undefined && f.web && !COMMAND_EVENTS.has(event)) return f.web(relayUrl(host, choice.port, choice.hooksFrom), event);
  return f.handler(relayCommand(host, event, choice.hooksFrom, undefined, undefined, choice.port), event);
}

/** The port of Hookline's http entries in a settings object, if it has any. */
export function portIn(settings: Record<string, unknown>): number | undefined {
  for (const { handler } of entriesIn(settings)) {
    const port = relayUrlParts(handler.url)?.port ?? relayWords(commandOf(handler))?.port;
    if (port !== undefined) return port;
  }
  return undefined;
}

/** What a handler runs: Claude Code's and Gemini CLI's `command`, Copilot CLI's `bash`. */
export const commandOf = (h: Record<string, unknown>): unknown => h.bash ?? h.command;

const isOurs = (h: unknown): boolean =>
  !!h &&
  typeof h === 'object' &&
  !Array.isArray(h) &&
  (relayWords(commandOf(h as Record<string, unknown>)) !== undefined || relayUrlParts((h as Record<string, unknown>).url) !== undefined);

/** The parsed settings object, or a one-line problem naming the file. */
export function readSettings(file: string, text: string): { value: Record<string, unknown> } | { problem: string } {
  if (!text.trim()) return { value: {} };
  const p = parseJsonc(text);
  if (!p.ok) return { problem: `${file}: ${p.message}; fix it first, nothing was changed` };
  if (!p.value || typeof p.value !== 'object' || Array.isArray(p.value))
    return { problem: `${file}: settings must be a JSON object; nothing was changed` };
  return { value: p.value as Record<string, unknown> };
}

/** Hookline's handlers in a settings object, per event. */
export function entriesIn(settings: Record<string, unknown>): Array<{ event: string; handler: Record<string, unknown> }> {
  const hooks = settings.hooks;
  if (!hooks || typeof hooks !== 'object' || Array.isArray(hooks)) return [];
  const out: Array<{ event: string; handler: Record<string, unknown> }> = [];
  for (const [event, groups] of Object.entries(hooks as Record<string, unknown>)) {
    if (!Array.isArray(groups)) continue;
    for (const g of groups) {
      const list = (g as { hooks?: unknown } | null)?.hooks;
      if (Array.isArray(list)) for (const h of list) if (isOurs(h)) out.push({ event, handler: h as Record<string, unknown> });
      // Copilot CLI's flat entry.
      if (!Array.isArray(list) && isOurs(g)) out.push({ event, handler: g as Record<string, unknown> });
    }
  }
  return out;
}

/** The group Hookline adds for one event. */
export function groupFor(host: HostName, event: string, choice: InstallChoice): Record<string, unknown> {
  const handler = handlerFor(host, event, choice);
  return FORMATS[host].flat ? handler : { hooks: [handler] };
}

function indentOf(text: string): { insertSpaces: boolean; tabSize: number; eol: string } {
  const indent = /\n([ \t]+)"/.exec(text)?.[1] ?? '  ';
  return {
    insertSpaces: !indent.startsWith('\t'),
    tabSize: indent.startsWith('\t') ? 1 : indent.length,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
}

/** `text` with Hookline's group appended to every event's list (lists and `hooks` created as needed); the rest kept byte for byte. */
export function withEntries(text: string, host: HostName, choice: InstallChoice): string {
  let out = text.trim() ? text : `${JSON.stringify(FORMATS[host].newFile ?? {}, null, 2)}\n`;
  for (const event of FORMATS[host].events) {
    const group = groupFor(host, event, choice);
    const tree = parseTree(out);
    const node = tree && findNodeAtLocation(tree, ['hooks', event]);
    const formattingOptions = indentOf(out);
    const edits =
      node?.type === 'array'
        ? modify(out, ['hooks', event, node.children?.length ?? 0], group, { isArrayInsertion: true, formattingOptions })
        : modify(out, ['hooks', event], [group], { formattingOptions });
    out = applyEdits(out, edits);
  }
  return out.endsWith('\n') ? out : `${out}\n`;
}

/** `text` without Hookline's handlers: a group left empty goes, an event list left empty goes, a `hooks` left empty goes. */
export function withoutEntries(text: string): string {
  let out = text;
  // One removal at a time, from the end, so every path stays valid.
  for (;;) {
    const tree = parseTree(out);
    const hooks = tree && findNodeAtLocation(tree, ['hooks']);
    if (hooks?.type !== 'object') return out;
    const found = lastOurs(hooks);
    if (!found) return out;
    out = applyEdits(out, modify(out, found, undefined, { formattingOptions: indentOf(out) }));
  }
}

/** The path of the last of Hookline's handlers (or of the group, list or `hooks` that holds only it). */
function lastOurs(hooks: Node): Array<string | number> | undefined {
  const events = hooks.children ?? [];
  for (let e = events.length - 1; e >= 0; e--) {
    const [key, list] = events[e]!.children ?? [];
    if (!key || list?.type !== 'array') continue;
    const groups = list.children ?? [];
    const event = key.value as string;
    for (let g = groups.length - 1; g >= 0; g--) {
      const handlers = groups[g] && findNodeAtLocation(groups[g]!, ['hooks']);
      if (handlers?.type !== 'array') {
        // Copilot CLI's flat entry.
        const flat = groups[g] && findNodeAtLocation(groups[g]!, ['bash']);
        if (!relayWords(flat?.value)) continue;
        if (groups.length > 1) return ['hooks', event, g];
        if (events.length > 1) return ['hooks', event];
        return ['hooks'];
      }
      const items = handlers.children ?? [];
      for (let h = items.length - 1; h >= 0; h--) {
        const cmd = items[h] && findNodeAtLocation(items[h]!, ['command']);
        const url = items[h] && findNodeAtLocation(items[h]!, ['url']);
        if (!relayWords(cmd?.value) && !relayUrlParts(url?.value)) continue;
        if (items.length > 1) return ['hooks', event, g, 'hooks', h];
        if (groups.length > 1) return ['hooks', event, g];
        if (events.length > 1) return ['hooks', event];
        return ['hooks'];
      }
    }
  }
  return undefined;
}

/** Whether the file already has exactly the entries an install would add (a second install changes nothing). */
export function installedAsAsked(settings: Record<string, unknown>, host: HostName, choice: InstallChoice): boolean {
  const have = entriesIn(settings);
  if (have.length !== FORMATS[host].events.length) return false;
  return FORMATS[host].events.every((event) => {
    const mine = have.filter((x) => x.event === event);
    return mine.length === 1 && JSON.stringify(mine[0]!.handler) === JSON.stringify(handlerFor(host, event, choice));
  });
}

/** Why an entry would not run Hookline (its Node or its relay is gone), or undefined when it would. */
export function entryProblem(handler: Record<string, unknown>): string | undefined {
  // An http entry needs no file: the command entries beside it start the server it posts to.
  if (relayUrlParts(handler.url)) return undefined;
  const w = relayWords(commandOf(handler));
  if (!w) return 'not a Hookline entry';
  if (w.shell)
    try {
      fs.accessSync(w.shell, fs.constants.X_OK);
    } catch {
      return `${w.shell} (the shell it runs) is missing`;
    }
  try {
    fs.accessSync(w.node, fs.constants.X_OK);
  } catch {
    return `${w.node} (the Node it runs) is missing`;
  }
  if (!fs.existsSync(w.script)) return `${w.script} is missing (Hookline moved or was removed)`;
  return undefined;
}
