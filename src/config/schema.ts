import { z } from 'zod';
import { EVENT_NAMES, type EventName } from '../events/names.js';
import type { CommandHookConfig as PlainCommandHook } from './entry.js';

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
      : 'unknown hook type; expected "command" or "http"';

/** Fail closed, in Claude Code's spelling: a hook that fails (times out, crashes, cannot start…) blocks as exit 2 would. */
const OnFailure = z.literal('block', { error: '"onFailure" must be "block" (fail closed) or left out' }).optional();

/** One command hook as written in settings.json. */
export const CommandHookConfig = z.object(
  {
    type: z.literal('command', { error: typeError }),
    command: z
      .string({ error: (iss) => (iss.input === undefined ? 'missing "command" for a command hook' : undefined) })
      .min(1, 'command must not be empty')
      .regex(/^[^\0]*$/, 'command must not contain a NUL character (no process can be started with one)'),
    name: z.string().optional(),
    description: z.string().optional(),
    /** Start once and exchange one JSON line per event (see src/run/persistent.ts). */
    persistent: z.boolean().optional(),
    /** Shadow mode: the hook runs and its decision is shown and traced, but not enforced. */
    shadow: z.boolean({ error: '"shadow" must be true or false' }).optional(),
    /** true: Node/Python run in an interpreter started ahead, as a fresh process would; false: no shell started ahead either (see src/run/prewarm.ts). */
    prewarm: z.boolean({ error: '"prewarm" must be true or false' }).optional(),
    timeout: z.number().positive('timeout must be a positive number of milliseconds').optional(),
    // Numbers and booleans are accepted as the reference does (the process sees their text).
    env: z
      .record(
        z.string().regex(/^[^=\0]+$/, 'an environment variable name must be non-empty, without "=" or a NUL character'),
        z.union([z.string().regex(/^[^\0]*$/, 'must not contain a NUL character'), z.number(), z.boolean()]),
      )
      .transform((env) => Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)])))
      .optional(),
    onFailure: OnFailure,
  },
  { error: 'a hook must be an object with "type" and "command"' },
);
export type CommandHookConfig = z.infer<typeof CommandHookConfig>;
// The zod-free shape in entry.ts must stay this schema's output, field for field.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShape: [Same<CommandHookConfig, PlainCommandHook>, Same<keyof CommandHookConfig, keyof PlainCommandHook>] = [true, true];
void sameShape;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
// A header name is an HTTP token; a value holds no line break (it would split the request).
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * One `http` hook: the event's JSON is POSTed to `url` and the response read like a command
 * hook's stdout (src/run/http.ts). Header values may name `$VAR` / `${VAR}` from `allowedEnvVars`
 * only. Trusted like a command hook: the URL and headers are in its fingerprint.
 */
export const HttpHookConfig = z.object({
  type: z.literal('http'),
  url: z
    .string({ error: (iss) => (iss.input === undefined ? 'missing "url" for an http hook' : '"url" must be a string') })
    .refine((u) => /^https?:\/\/[^\s]+$/i.test(u) && URL.canParse(u), 'url must be an http:// or https:// URL')
    .refine(
      (u) => !URL.canParse(u) || (!new URL(u).username && !new URL(u).password),
      'url must not carry credentials; send them in a header',
    ),
  headers: z
    .record(
      z.string().regex(HEADER_NAME, 'header names are HTTP tokens (letters, digits, -)'),
      z.string({ error: 'header values must be strings' }).regex(/^[^\r\n]*$/, 'header values must not contain line breaks'),
    )
    .optional(),
  allowedEnvVars: z.array(z.string().regex(ENV_NAME, 'allowedEnvVars entries are variable names (e.g. "API_TOKEN", no "$")')).optional(),
  /** Send `{"<inputKey>": <event>}` (OPA's data API: "input"). */
  inputKey: z.string().min(1, 'inputKey must not be empty').optional(),
  /** Read the decision from the response's `<resultKey>` field (OPA's data API: "result"). */
  resultKey: z.string().min(1, 'resultKey must not be empty').optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  /** Shadow mode: the hook runs and its decision is shown and traced, but not enforced. */
  shadow: z.boolean({ error: '"shadow" must be true or false' }).optional(),
  timeout: z.number().positive('timeout must be a positive number of milliseconds').optional(),
  onFailure: OnFailure,
});
export type HttpHookConfig = z.infer<typeof HttpHookConfig>;

/** A hook as written in settings.json: a command, or an http endpoint. */
export const SettingsHookConfig = z.discriminatedUnion('type', [CommandHookConfig, HttpHookConfig], {
  error: (iss) =>
    typeof iss.input !== 'object' || iss.input === null || Array.isArray(iss.input)
      ? 'a hook must be an object with "type" and "command"'
      : typeError({ input: (iss.input as Record<string, unknown>).type }),
});
export type SettingsHookConfig = z.infer<typeof SettingsHookConfig>;

/** One entry of `hooks.<Event>`: a matcher and the hooks it guards. */
export const HookDefinition = z.object(
  {
    matcher: z.string({ error: '"matcher" must be a string' }).optional(),
    sequential: z.boolean({ error: '"sequential" must be true or false' }).optional(),
    hooks: z.array(SettingsHookConfig, {
      error: (iss) => (iss.input === undefined ? 'missing "hooks" array' : '"hooks" must be an array'),
    }),
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
        /** true: pre-warm every one-shot node/python hook; false: no hook runs in a shell started ahead (a hook's own `prewarm` wins). */
        prewarm: z.boolean({ error: '"prewarm" must be true or false' }).optional(),
      })
      .loose()
      .optional(),
    /** Hook traces (src/engine/trace.ts); read from the user and system settings only. */
    trace: z
      .object({
        enabled: z.boolean({ error: '"trace.enabled" must be true or false' }).optional(),
        inputs: z.boolean({ error: '"trace.inputs" must be true or false' }).optional(),
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

export { SOURCE_PRIORITY, displayName, hookKey } from './entry.js';
export type { Source, FunctionHook, HookSpec, HookEntry } from './entry.js';
