import { z } from 'zod';
import { EVENT_NAMES, type EventName } from '../events/names.js';
import type { AnyHookInput } from '../events/input.js';
import type { HookOutput } from '../events/output.js';

/*
 * These schemas are the one description of settings: the runtime validator reads with them and
 * takes its messages from their issues, and scripts/schema.mjs publishes them (in "input" mode)
 * as schema/settings.json. Unknown fields are warnings, not errors, so hooks and definitions are
 * plain (stripping) objects: the published schema allows extra fields there.
 */

const typeError = (iss: { input?: unknown }) =>
  iss.input === undefined
    ? 'missing "type" (expected "command")'
    : iss.input === 'runtime'
      ? 'runtime hooks are registered in code, not in settings'
      : 'unknown hook type; expected "command"';

/** One command hook as written in settings.json. */
export const CommandHookConfig = z.object(
  {
    type: z.literal('command', { error: typeError }),
    command: z
      .string({ error: (iss) => (iss.input === undefined ? 'missing "command" for a command hook' : undefined) })
      .min(1, 'command must not be empty'),
    name: z.string().optional(),
    description: z.string().optional(),
    /** Start once and exchange one JSON line per event (see src/run/persistent.ts). */
    persistent: z.boolean().optional(),
    /** Run in an interpreter started ahead of time, as a fresh process would (see src/run/prewarm.ts). */
    prewarm: z.boolean({ error: '"prewarm" must be true or false' }).optional(),
    timeout: z.number().positive('timeout must be a positive number of milliseconds').optional(),
    // Numbers and booleans are accepted as the reference does (the process sees their text).
    env: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
      .transform((env) => Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)])))
      .optional(),
  },
  { error: 'a hook must be an object with "type" and "command"' },
);
export type CommandHookConfig = z.infer<typeof CommandHookConfig>;

/** One entry of `hooks.<Event>`: a matcher and the hooks it guards. */
export const HookDefinition = z.object(
  {
    matcher: z.string({ error: '"matcher" must be a string' }).optional(),
    sequential: z.boolean({ error: '"sequential" must be true or false' }).optional(),
    hooks: z.array(CommandHookConfig, { error: (iss) => (iss.input === undefined ? 'missing "hooks" array' : '"hooks" must be an array') }),
  },
  { error: 'a hook definition must be an object with a "hooks" array' },
);

/** Keys inside `hooks` that configure the system rather than name an event (an older layout). */
export const HooksMeta = z.object({
  enabled: z.boolean().optional(),
  disabled: z.array(z.string()).optional(),
  notifications: z.boolean().optional(),
});

const eventHooks = Object.fromEntries(
  EVENT_NAMES.map((e) => [e, z.array(HookDefinition, { error: `"${e}" must be an array of hook definitions` }).optional()]),
) as Record<EventName, z.ZodOptional<z.ZodArray<typeof HookDefinition>>>;

/** `hooks`: an array of definitions per event; any other key is an unknown event. */
export const HooksBlock = z
  .object({ ...eventHooks, ...HooksMeta.shape }, { error: '"hooks" must be an object keyed by event name' })
  .strict();

/** The parts of settings.json Hookline reads. */
export const Settings = z
  .object({
    hooks: HooksBlock.optional(),
    hooksConfig: z
      .object({
        enabled: z.boolean().optional(),
        disabled: z.array(z.string()).optional(),
        notifications: z.boolean().optional(),
        /** Pre-warm every one-shot node/python hook (a hook's own `prewarm` wins). */
        prewarm: z.boolean({ error: '"prewarm" must be true or false' }).optional(),
      })
      .loose()
      .optional(),
    security: z
      .object({
        folderTrust: z.object({ enabled: z.boolean().optional() }).loose().optional(),
        environmentVariableRedaction: z
          .object({
            enabled: z.boolean().optional(),
            allowed: z.array(z.string()).optional(),
            blocked: z.array(z.string()).optional(),
          })
          .loose()
          .optional(),
      })
      .loose()
      .optional(),
  })
  .loose();

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
}

export type HookSpec = CommandHookConfig | FunctionHook;

/** A hook as the engine knows it after loading: where it came from and whether it may run. */
export interface HookEntry {
  event: EventName;
  source: Source;
  /** Settings file it came from (absent for runtime hooks). */
  file?: string;
  /** JSON path of the hook inside its file. */
  path?: string;
  extension?: string;
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
  return hook.name;
}

/** Identity used for dedupe, and the `name:command` key Gemini CLI looks up in trusted_hooks.json. */
export function hookKey(hook: HookSpec): string {
  return `${hook.name ?? ''}:${hook.type === 'command' ? hook.command : ''}`;
}
