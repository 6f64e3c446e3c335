/**
 * Plain checks for the settings values almost every file holds, so reading them needs no schema
 * library. Each answers exactly what the zod schema of src/config/schema.ts would, or "not sure"
 * (undefined / false), and then the caller asks the schema, which also words the problems.
 */
import type { CommandHookConfig } from './entry.js';

const isRecord = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};
const optional = (v: unknown, type: 'string' | 'boolean') => v === undefined || typeof v === type;
const stringList = (v: unknown) => {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string') return false;
  return true;
};
const optionalList = (v: unknown) => v === undefined || stringList(v);
/** Loose object: absent, or an object whose named fields pass. */
const optionalObject = (v: unknown, fields: (o: Record<string, unknown>) => boolean) => v === undefined || (isRecord(v) && fields(v));

/** Keys inside `hooks` that configure the system rather than name an event (`HooksMeta`). */
export const HOOKS_META_KEYS: ReadonlySet<string> = new Set(['enabled', 'disabled', 'notifications']);
/** The fields of a hook definition (`HookDefinition`). */
export const DEFINITION_KEYS: ReadonlySet<string> = new Set(['matcher', 'sequential', 'hooks']);
/** The fields of a command hook, in the schema's order (`CommandHookConfig`). */
const HOOK_KEYS = ['type', 'command', 'name', 'description', 'persistent', 'shadow', 'prewarm', 'timeout', 'env'] as const;
const HOOK_KEY_SET: ReadonlySet<string> = new Set(HOOK_KEYS);

/** `HooksMeta` for one key: true when its value is surely valid. */
export function plainMeta(key: string, value: unknown): boolean {
  if (key === 'disabled') return optionalList(value);
  return optional(value, 'boolean');
}

/**
 * The settings besides `hooks` (`Settings` without `hooks`, loose): the value itself when surely
 * valid (the schema's output is a field-for-field copy of it), else undefined.
 */
export function plainSettings<T extends Record<string, unknown>>(copy: T): T | undefined {
  const ok =
    optionalObject(
      copy.hooksConfig,
      (c) =>
        optional(c.enabled, 'boolean') &&
        optionalList(c.disabled) &&
        optional(c.notifications, 'boolean') &&
        optional(c.prewarm, 'boolean'),
    ) &&
    optionalObject(copy.trace, (t) => optional(t.enabled, 'boolean') && optional(t.inputs, 'boolean')) &&
    optionalObject(
      copy.security,
      (s) =>
        optionalObject(s.folderTrust, (f) => optional(f.enabled, 'boolean')) &&
        optionalObject(
          s.environmentVariableRedaction,
          (r) => optional(r.enabled, 'boolean') && optionalList(r.allowed) && optionalList(r.blocked),
        ),
    );
  return ok ? copy : undefined;
}

/**
 * One command hook (`CommandHookConfig`): what the schema's parse returns when the hook is surely
 * valid and has only known fields, else undefined.
 */
export function plainCommandHook(raw: unknown): CommandHookConfig | undefined {
  if (!isRecord(raw) || raw.type !== 'command' || typeof raw.command !== 'string' || raw.command === '' || raw.command.includes('\0'))
    return undefined;
  for (const k in raw) if (!HOOK_KEY_SET.has(k) || raw[k] === undefined) return undefined;
  const { name, description, persistent, shadow, prewarm, timeout, env } = raw;
  if (!optional(name, 'string') || !optional(description, 'string')) return undefined;
  if (!optional(persistent, 'boolean') || !optional(shadow, 'boolean') || !optional(prewarm, 'boolean')) return undefined;
  if (timeout !== undefined && !(typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0)) return undefined;
  let strings: Record<string, string> | undefined;
  if (env !== undefined) {
    if (!isRecord(env)) return undefined;
    strings = {};
    // Numbers and booleans are valid too, but said as warnings: left to the full check.
    for (const [k, v] of Object.entries(env)) {
      if (typeof v !== 'string' || !/^[^=\0]+$/.test(k) || v.includes('\0')) return undefined;
      strings[k] = v;
    }
  }
  const hook: CommandHookConfig = { type: 'command', command: raw.command };
  if (name !== undefined) hook.name = name as string;
  if (description !== undefined) hook.description = description as string;
  if (persistent !== undefined) hook.persistent = persistent as boolean;
  if (shadow !== undefined) hook.shadow = shadow as boolean;
  if (prewarm !== undefined) hook.prewarm = prewarm as boolean;
  if (timeout !== undefined) hook.timeout = timeout as number;
  if (strings) hook.env = strings;
  return hook;
}
