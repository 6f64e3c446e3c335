/**
 * The hook systems Hookline runs, in the order their hooks run at every point of the agent
 * loop. Each is loaded on demand, so firing a Gemini event never loads YAML or RE2. Adding a
 * hook system is a folder under src/dialects and one line here.
 */
import { UsageError } from '../config/problems.js';
import type { DialectHook } from '../trust/dialects.js';
import type { HookSystem } from './system.js';

const LOADERS: ReadonlyArray<readonly [string, () => Promise<HookSystem>]> = [
  ['gemini', async () => (await import('./gemini/system.js')).geminiSystem],
  ['claude', async () => (await import('./claude/system.js')).claudeSystem],
  ['codex', async () => (await import('./codex/system.js')).codexSystem],
  ['mm', async () => (await import('./mm/system.js')).mmSystem],
  ['spatialagent', async () => (await import('./spatialagent/system.js')).spatialAgentSystem],
  ['agy', async () => (await import('./agy/system.js')).agySystem],
  ['copilot', async () => (await import('./copilot/system.js')).copilotSystem],
];

export const DIALECTS: readonly string[] = LOADERS.map(([name]) => name);

/** Each system once loaded: a server fires thousands of events through the same one. */
const loaded = new Map<string, Promise<HookSystem>>();
function load(name: string, loader: () => Promise<HookSystem>): Promise<HookSystem> {
  let system = loaded.get(name);
  if (!system) {
    system = loader();
    loaded.set(name, system);
    system.catch(() => loaded.delete(name));
  }
  return system;
}

export function systemNamed(name: string | undefined): Promise<HookSystem> {
  const found = LOADERS.find(([n]) => n === (name ?? 'gemini'));
  if (!found) throw new UsageError(`unknown dialect "${name}" — use one of ${DIALECTS.join(', ')}`);
  return load(...found);
}

/** Every hook system, in order. */
export function allSystems(): Promise<HookSystem[]> {
  return Promise.all(LOADERS.map(([name, loader]) => load(name, loader)));
}

/** The workspace hooks of every system found in a project folder (for trust and listing). */
export async function findWorkspaceHooks(dir: string, env: NodeJS.ProcessEnv = process.env): Promise<DialectHook[]> {
  return (await allSystems()).flatMap((s) => s.workspaceHooks(dir, env));
}
