/**
 * One Claude Code handler (`hooks.<Event>[i].hooks[j]`) read and checked: its type (`command`,
 * `http`, `prompt`, `agent`, `mcp_tool`), the fields of that type, and the options every handler
 * may carry (`if`, `timeout`, `statusMessage`, `once`, `onFailure`; `async`, `asyncRewake` and
 * `shell` for commands). Every problem names the JSON path; a handler with an error is not loaded.
 */
import type { ConfigProblem } from '../../config/problems.js';
import { unlistedHeaderVars } from '../../config/header-vars.js';
import { MAX_TIMEOUT_MS, MAX_TIMEOUT_TEXT } from '../../config/timeout.js';
import { compileIfRule, IF_EVENTS, type IfRule } from './if-rule.js';
import { isObject, kind } from '../json.js';

export type ClaudeHandlerType = 'command' | 'http' | 'prompt' | 'agent' | 'mcp_tool';
export const CLAUDE_HANDLER_TYPES: readonly ClaudeHandlerType[] = ['command', 'http', 'prompt', 'agent', 'mcp_tool'];

/** Default timeouts in seconds, per type (Claude Code's). */
export const DEFAULT_TIMEOUTS: Readonly<Record<ClaudeHandlerType, number>> = {
  command: 600,
  http: 600,
  mcp_tool: 600,
  prompt: 30,
  agent: 60,
};

/** The events whose hooks may be judged by a model (prompt; agent on all but PermissionRequest). */
const JUDGED_EVENTS = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'PermissionDenied',
  'PermissionRequest',
  'Stop',
  'SubagentStop',
  'TaskCreated',
  'TaskCompleted',
  'TeammateIdle',
  'UserPromptExpansion',
  'UserPromptSubmit',
]);
/** SessionStart and Setup run command (and mcp_tool) hooks only. */
const COMMAND_ONLY_EVENTS = new Set(['SessionStart', 'Setup']);

export interface ClaudeHandler {
  type: ClaudeHandlerType;
  /** What it runs, as written: the command, the URL, the prompt, or `server/tool`. */
  command: string;
  timeoutSeconds: number;
  statusMessage?: string;
  /** The `if` filter, compiled. */
  if?: IfRule;

  async?: boolean;
  asyncRewake?: boolean;
  /** What the model reads before an asyncRewake hook's output (Claude Code's default names the hook). */
  rewakeMessage?: string;
  /** The line the user is shown when an asyncRewake hook wakes the agent (default "Stop hook feedback"). */
  rewakeSummary?: string;
  /** `block`: an error or a timeout blocks, as exit code 2 would (fail closed). */
  onFailure?: 'block';
  http?: { url: string; headers: Record<string, string>; allowedEnvVars: string[] };
  /** prompt and agent hooks: the prompt, the model named (the agent's model judges), continueOnBlock. */
  judge?: { prompt: string; model?: string; continueOnBlock: boolean };
  mcp?: { server: string; tool: string; input?: Record<string, unknown> };
  /** The handler as written but its statusMessage: every field of it is in the fingerprint. */
  handler: Record<string, unknown>;
}

type Problem = (at: ReadonlyArray<string | number>, message: string, severity?: ConfigProblem['severity']) => void;

const COMMON_KEYS = ['type', 'if', 'timeout', 'statusMessage', 'once', 'onFailure'];
const TYPE_KEYS: Record<ClaudeHandlerType, string[]> = {
  command: ['command', 'args', 'async', 'asyncRewake', 'rewakeMessage', 'rewakeSummary', 'shell'],
  http: ['url', 'headers', 'allowedEnvVars'],
  prompt: ['prompt', 'model', 'continueOnBlock'],
  agent: ['prompt', 'model'],
  mcp_tool: ['server', 'tool', 'input', 'continueOnBlock'],
};

function formatSeconds(s: number): string {
  if (s < 3600) return `about ${Math.round(s / 60)} minutes`;
  return `about ${Math.round(s / 360) / 10} hours`;
}

/** What Claude Code fills into an exec-form hook's words: no shell, so their values need no quoting. */
const PLACEHOLDERS = new Set(['CLAUDE_PROJECT_DIR', 'CLAUDE_PLUGIN_ROOT', 'CLAUDE_PLUGIN_DATA']);

/**
 * Exec form (`"command": "python3", "args": ["${CLAUDE_PLUGIN_ROOT}/x.py"]`): the program and its
 * arguments as one bash command that runs exactly those words. Each word is double-quoted with
 * everything the shell would read escaped but the placeholders, which are filled in quoted
 * where they stand, as in any command (so the hook is fingerprinted with the files it runs).
 */
export function execFormCommand(command: string, args: readonly string[]): string {
  const word = (w: string) =>
    `"${w.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|[\\"$`]/g, (m, name?: string) => (name && PLACEHOLDERS.has(name) ? m : `\\${m}`))}"`;
  return [command, ...args].map(word).join(' ');
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export interface HandlerContext {
  event: string;
  /** The platform the hooks run on (`powershell` needs Windows). */
  platform?: NodeJS.Platform;
}

/** Reads one handler; undefined when it cannot run (the problems say why). */
export function readClaudeHandler(
  raw: unknown,
  at: Array<string | number>,
  problem: Problem,
  ctx: HandlerContext,
): ClaudeHandler | undefined {
  if (!isObject(raw)) {
    problem(at, `a hook must be an object with "type" and "command", got ${kind(raw)}`);
    return undefined;
  }
  if (raw.type === undefined) {
    problem([...at, 'type'], 'missing "type" (expected "command", "http", "prompt", "agent" or "mcp_tool")');
    return undefined;
  }
  const type = raw.type as ClaudeHandlerType;
  if (!CLAUDE_HANDLER_TYPES.includes(type)) {
    problem([...at, 'type'], `unknown hook type ${JSON.stringify(raw.type)}; expected "command", "http", "prompt", "agent" or "mcp_tool"`);
    return undefined;
  }
  const known = new Set([...COMMON_KEYS, ...TYPE_KEYS[type]]);
  for (const k of Object.keys(raw))
    if (!known.has(k)) {
      const other = CLAUDE_HANDLER_TYPES.find((t) => TYPE_KEYS[t].includes(k));
      problem(
        [...at, k],
        other ? `"${k}" is for ${other} hooks, not ${type} hooks (ignored)` : `unknown field "${k}" (ignored)`,
        'warning',
      );
    }
  let ok = true;
  const fail = (key: string, message: string) => {
    ok = false;
    problem([...at, key], message);
  };
  const text = (key: string, what: string): string | undefined => {
    const v = raw[key];
    if (v === undefined) fail(key, `missing "${key}" for ${what}`);
    else if (typeof v !== 'string' || !v.trim())
      fail(key, `"${key}" must be a non-empty string, got ${typeof v === 'string' ? 'an empty string' : kind(v)}`);
    else return v;
    return undefined;
  };
  const flag = (key: string): boolean | undefined => {
    const v = raw[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'boolean') {
      fail(key, `"${key}" must be true or false, got ${kind(v)}`);
      return undefined;
    }
    return v;
  };

  if (type === 'prompt' || type === 'agent') {
    if (!JUDGED_EVENTS.has(ctx.event) || (type === 'agent' && ctx.event === 'PermissionRequest'))
      fail('type', `${ctx.event} does not take "${type}" hooks (Claude Code runs them on tool, prompt and stop events only)`);
  } else if (type === 'http' && COMMAND_ONLY_EVENTS.has(ctx.event)) fail('type', `${ctx.event} takes "command" and "mcp_tool" hooks only`);

  const out: Partial<ClaudeHandler> & { type: ClaudeHandlerType } = { type };
  if (type === 'command') {
    const command = text('command', 'a command hook');
    if (command !== undefined) out.command = command;
    if (raw.args !== undefined) {
      if (!Array.isArray(raw.args) || !raw.args.every((a) => typeof a === 'string'))
        fail('args', `"args" must be an array of strings (the program's arguments), got ${kind(raw.args)}`);
      else if (command !== undefined) out.command = execFormCommand(command, raw.args);
    }
    const shell = raw.shell;
    if (shell !== undefined && shell !== 'bash') {
      if (shell === 'powershell') {
        if ((ctx.platform ?? process.platform) !== 'win32')
          fail('shell', '"shell": "powershell" runs on Windows only; on this system hooks run with bash (write "bash", or leave it out)');
      } else fail('shell', `"shell" must be "bash" or "powershell", got ${JSON.stringify(shell)}`);
    }
  } else if (type === 'http') {
    const url = text('url', 'an http hook');
    if (url !== undefined) {
      let u: URL | undefined;
      try {
        u = new URL(url);
      } catch {
        fail('url', `"${url}" is not a valid URL`);
      }
      if (u && u.protocol !== 'http:' && u.protocol !== 'https:') fail('url', `"${url}" must be an http:// or https:// URL`);
      else if (u && (u.username || u.password))
        fail('url', 'the URL must not carry credentials; send them in a header from allowedEnvVars');
      else if (u) out.command = url;
    }
    const headers: Record<string, string> = {};
    if (raw.headers !== undefined) {
      if (!isObject(raw.headers))
        fail('headers', `"headers" must be an object of header names and string values, got ${kind(raw.headers)}`);
      else
        for (const [name, value] of Object.entries(raw.headers)) {
          if (!HEADER_NAME.test(name)) fail('headers', `"${name}" is not a valid header name`);
          else if (typeof value !== 'string' || /[\r\n]/.test(value)) {
            ok = false;
            problem(
              [...at, 'headers', name],
              typeof value !== 'string' ? `must be a string, got ${kind(value)}` : 'must not contain line breaks',
            );
          } else headers[name] = value;
        }
    }
    const allowed: string[] = [];
    if (raw.allowedEnvVars !== undefined) {
      if (!Array.isArray(raw.allowedEnvVars))
        fail('allowedEnvVars', `"allowedEnvVars" must be an array of variable names, got ${kind(raw.allowedEnvVars)}`);
      else
        raw.allowedEnvVars.forEach((v, i) => {
          if (typeof v === 'string' && ENV_NAME.test(v)) allowed.push(v);
          else {
            ok = false;
            problem([...at, 'allowedEnvVars', i], `${JSON.stringify(v)} is not a variable name (write "API_TOKEN", not "$API_TOKEN")`);
          }
        });
    }
    for (const name of unlistedHeaderVars(headers, allowed))
      problem(
        [...at, 'headers'],
        `$${name} is not in "allowedEnvVars": it is sent as an empty string (list it to send its value)`,
        'warning',
      );
    out.http = { url: url ?? '', headers, allowedEnvVars: allowed };
  } else if (type === 'prompt' || type === 'agent') {
    const prompt = text('prompt', `a ${type} hook`);
    let model: string | undefined;
    if (raw.model !== undefined) {
      if (typeof raw.model !== 'string') fail('model', `"model" must be a string, got ${kind(raw.model)}`);
      else {
        model = raw.model;
        problem([...at, 'model'], `the agent's own model judges ${type} hooks in Hookline; "${raw.model}" is not used`, 'warning');
      }
    }
    const continueOnBlock = type === 'prompt' ? flag('continueOnBlock') : undefined;
    if (prompt !== undefined) {
      out.command = prompt;
      out.judge = { prompt, ...(model !== undefined ? { model } : {}), continueOnBlock: type === 'agent' || continueOnBlock === true };
    }
  } else {
    const server = text('server', 'an mcp_tool hook');
    const tool = text('tool', 'an mcp_tool hook');
    if (raw.input !== undefined && !isObject(raw.input))
      fail('input', `"input" must be an object of the tool's arguments, got ${kind(raw.input)}`);
    if (server !== undefined && tool !== undefined) {
      out.command = `${server}/${tool}`;
      out.mcp = { server, tool, ...(isObject(raw.input) ? { input: raw.input } : {}) };
      // Hookline's agent has no MCP client: the hook cannot call its tool.
      problem(
        at,
        `mcp_tool hooks call a tool on a connected MCP server, and Hookline has no MCP client configured: this hook fails each time it runs (${raw.onFailure === 'block' ? 'and blocks' : 'without blocking'})`,
        'warning',
      );
    }
  }

  // Options every handler carries.
  let timeoutSeconds = DEFAULT_TIMEOUTS[type];
  if (raw.timeout !== undefined) {
    if (typeof raw.timeout !== 'number' || Number.isNaN(raw.timeout) || raw.timeout <= 0)
      fail('timeout', `timeout must be a positive number of seconds, got ${JSON.stringify(raw.timeout) ?? kind(raw.timeout)}`);
    else if (raw.timeout * 1000 > MAX_TIMEOUT_MS) {
      timeoutSeconds = MAX_TIMEOUT_MS / 1000;
      problem(
        [...at, 'timeout'],
        `timeout ${raw.timeout} seconds is above the limit of ${MAX_TIMEOUT_TEXT}; ${timeoutSeconds} seconds is used`,
        'warning',
      );
    } else {
      timeoutSeconds = raw.timeout;
      // Hooks written for Gemini CLI (milliseconds) often carry 5000 or 30000 here.
      if (raw.timeout >= 1000)
        problem(
          [...at, 'timeout'],
          `timeout ${raw.timeout} is in seconds (${formatSeconds(raw.timeout)}); Claude Code timeouts are seconds, not milliseconds — for ${raw.timeout} ms write ${Math.max(1, Math.round(raw.timeout / 1000))}`,
          'warning',
        );
    }
  }
  if (raw.statusMessage !== undefined && typeof raw.statusMessage !== 'string')
    fail('statusMessage', `"statusMessage" must be a string, got ${kind(raw.statusMessage)}`);
  // Claude Code removes a `once` hook after its first run only when a skill registered it; in a
  // settings file or a plugin it runs every time, and so it does here.
  if (flag('once'))
    problem(
      [...at, 'once'],
      '"once" is honoured only for a skill\'s hooks: in settings files and plugins Claude Code runs this hook every time, and so does Hookline',
      'warning',
    );
  let onFailure: 'block' | undefined;
  if (raw.onFailure !== undefined) {
    if (raw.onFailure === 'block') onFailure = 'block';
    else if (raw.onFailure !== 'continue' && raw.onFailure !== 'ignore')
      fail('onFailure', `"onFailure" must be "block" (fail closed) or left out, got ${JSON.stringify(raw.onFailure)}`);
  }
  let async: boolean | undefined;
  let asyncRewake: boolean | undefined;
  const rewake: { rewakeMessage?: string; rewakeSummary?: string } = {};
  if (type === 'command') {
    async = flag('async');
    asyncRewake = flag('asyncRewake');
    if ((async || asyncRewake) && onFailure === 'block')
      problem([...at, 'onFailure'], 'a background (async) hook cannot block: "onFailure": "block" has no effect here', 'warning');
    for (const key of ['rewakeMessage', 'rewakeSummary'] as const) {
      const v = raw[key];
      if (v === undefined) continue;
      if (typeof v !== 'string' || !v)
        fail(key, `"${key}" must be a non-empty string, got ${typeof v === 'string' ? 'an empty string' : kind(v)}`);
      else {
        rewake[key] = v;
        if (!asyncRewake) problem([...at, key], `"${key}" is used only with "asyncRewake": true; here it has no effect`, 'warning');
      }
    }
  }
  let rule: IfRule | undefined;
  if (raw.if !== undefined) {
    if (typeof raw.if !== 'string' || !raw.if.trim())
      fail('if', `"if" must be a permission rule such as "Bash(git *)", got ${kind(raw.if)}`);
    else {
      const c = compileIfRule(raw.if.trim());
      if (!c.ok) fail('if', c.message);
      else {
        rule = c.rule;
        if (!IF_EVENTS.has(ctx.event))
          problem([...at, 'if'], `"if" filters apply to tool events only: on ${ctx.event} this hook never runs`, 'warning');
      }
    }
  }
  if (!ok || out.command === undefined) return undefined;
  const { statusMessage: _shown, ...handler } = raw;
  return {
    ...(out as ClaudeHandler),
    timeoutSeconds,
    ...(typeof raw.statusMessage === 'string' ? { statusMessage: raw.statusMessage } : {}),
    ...(rule ? { if: rule } : {}),

    ...(async ? { async } : {}),
    ...(asyncRewake ? { asyncRewake, ...rewake } : {}),
    ...(onFailure ? { onFailure } : {}),
    handler,
  };
}
