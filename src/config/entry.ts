/**
 * Hooks as the engine knows them once read, and the helpers every stage uses on them. No zod
 * here: a fire whose settings are plainly valid never loads the schemas (src/config/schema.ts).
 */
import type { EventName } from '../events/names.js';
import type { AnyHookInput } from '../events/input.js';
import type { HookOutput } from '../events/output.js';

/** One command hook as read from settings.json (the shape `CommandHookConfig` in schema.ts parses to). */
export interface CommandHookConfig {
  type: 'command';
  command: string;
  name?: string;
  description?: string;
  persistent?: boolean;
  /** Shadow mode: the hook runs and its decision is shown and traced, but not enforced. */
  shadow?: boolean;
  /** true: Node/Python run in an interpreter started ahead, as a fresh process would; false: no shell started ahead either (see src/run/prewarm.ts). */
  prewarm?: boolean;
  timeout?: number;
  env?: Record<string, string>;
  /** `block`: any failure (timeout, crash, start, unreadable output, non-zero exit) blocks as exit 2 would. */
  onFailure?: 'block';
}

/** One http hook as read from settings.json (the shape `HttpHookConfig` in schema.ts parses to). */
export interface HttpHookConfig {
  type: 'http';
  url: string;
  headers?: Record<string, string>;
  allowedEnvVars?: string[];
  inputKey?: string;
  resultKey?: string;
  name?: string;
  description?: string;
  shadow?: boolean;
  timeout?: number;
  /** `block`: any failure blocks as exit 2 would. */
  onFailure?: 'block';
}

export type Source = 'runtime' | 'project' | 'user' | 'system' | 'extensions';
export const SOURCE_PRIORITY: Record<Source, number> = { runtime: 0, project: 1, user: 2, system: 3, extensions: 4 };

/** An in-process hook registered in code. */
export interface FunctionHook {
  type: 'runtime';
  name: string;
  action: (
    input: AnyHookInput,
    ctx: { signal: AbortSignal },
  ) => Promise<HookOutput | void | null | undefined> | HookOutput | void | null | undefined;
  timeout?: number;
  description?: string;
  /** Shadow mode: shown and traced, not enforced. */
  shadow?: boolean;
}

export type HookSpec = CommandHookConfig | HttpHookConfig | FunctionHook;

/** A hook as the engine knows it after loading: where it came from and whether it may run. */
export interface HookEntry {
  event: EventName;
  source: Source;
  /** Settings file it came from (absent for runtime hooks). */
  file?: string;
  /** JSON path of the hook inside its file. */
  path?: string;
  extension?: string;
  /** An extension's settings its hooks get (declared in its manifest, valued in its `.env`). */
  extensionEnv?: Record<string, string>;
  matcher?: string;
  sequential?: boolean;
  hook: HookSpec;
  enabled: boolean;
  /** `hooksConfig.prewarm` of the settings in force (the hook's own `prewarm` wins). */
  prewarm?: boolean;
}

/** The name used to enable or disable a hook: its name, or its command. */
export function displayName(hook: HookSpec): string {
  if (hook.type === 'command') return hook.name || hook.command;
  if (hook.type === 'http') return hook.name || hook.url;
  return hook.name;
}

/** Identity used for dedupe, and the `name:command` key Gemini CLI looks up in trusted_hooks.json. */
export function hookKey(hook: HookSpec): string {
  // An http hook's key cannot equal a command's: a command is never `\0http …`.
  return `${hook.name ?? ''}:${hook.type === 'command' ? hook.command : hook.type === 'http' ? `\0http ${hook.url}` : ''}`;
}
