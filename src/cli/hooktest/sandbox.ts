/**
 * The environment a fixture runs in: a throwaway home (so the user's own settings, hooks and
 * trust files are neither read nor written) in which the project folder and its current
 * workspace hooks are trusted. The project folder itself is used as it is: hooks run there.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { allSystems, findWorkspaceHooks } from '../../dialects/registry.js';
import { keysToWrite } from '../../trust/dialects.js';
import { trustKeys } from '../../trust/fingerprints.js';
import { writeTrustedFolder } from '../../trust/folders.js';

/** Variables that point Hookline at the user's own configuration or trust: never passed to a sandbox. */
const USER_STATE = [
  'GEMINI_CLI_HOME',
  'GEMINI_CLI_SYSTEM_SETTINGS_PATH',
  'GEMINI_CLI_TRUSTED_FOLDERS_PATH',
  'GEMINI_CLI_TRUST_WORKSPACE',
  'GEMINI_RESTRICTED_MODE',
  'CLAUDE_CONFIG_DIR',
  'CLAUDE_CODE_PLUGIN_CACHE_DIR',
  'HOOKLINE_CLAUDE_MANAGED_SETTINGS',
  'CODEX_HOME',
  'HOOKLINE_CODEX_SYSTEM_DIR',
  'COPILOT_HOME',
  'HOOKLINE_SOCKET',
  'MM_CONFIG',
];

export interface Sandbox {
  env: NodeJS.ProcessEnv;
  remove(): void;
}

/**
 * A sandbox for the project folder `dir`. `settings`: a Gemini settings file read as the system
 * layer (not a workspace file: it needs no trust). `extra`: the fixture's own variables.
 */
export async function makeSandbox(dir: string, opts: { settings?: string; extra?: Record<string, string> } = {}): Promise<Sandbox> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-hooktest-'));
  const home = path.join(base, 'home');
  fs.mkdirSync(path.join(home, '.gemini'), { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of USER_STATE) delete env[k];
  Object.assign(env, {
    HOME: home,
    GEMINI_CLI_HOME: home,
    GEMINI_CLI_SYSTEM_SETTINGS_PATH: opts.settings ?? path.join(base, 'no-system-settings.json'),
    HOOKLINE_CLAUDE_MANAGED_SETTINGS: path.join(base, 'no-managed-settings.json'),
    HOOKLINE_CODEX_SYSTEM_DIR: path.join(base, 'no-codex-system'),
    ...opts.extra,
  });
  writeTrustedFolder(dir, 'TRUST_FOLDER', env);
  const keys = (await findWorkspaceHooks(dir, env)).flatMap((h) => keysToWrite(h).write);
  if (keys.length) trustKeys(dir, keys, env);
  // Systems with trust records of their own (Codex) trust the project and its hooks in the throwaway home too.
  for (const s of await allSystems()) s.ownTrust?.trust(dir, env, { project: true });
  return { env, remove: () => fs.rmSync(base, { recursive: true, force: true }) };
}
