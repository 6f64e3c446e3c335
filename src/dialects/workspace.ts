/**
 * The dialect hooks a project folder carries at their usual places: `agent.yaml`,
 * `.spatialagent/settings.json`, `.claude/settings.json` and `.claude/settings.local.json`.
 * For `hookline trust` and `hookline list`; loaded on demand (it pulls in YAML and RE2).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Env } from '../config/paths.js';
import type { DialectHook } from '../trust/dialects.js';
import { configOwner, type ConfigOwner } from '../trust/owner.js';
import { MmConfigReadError, defaultMmConfigPath, loadMmConfig, mmAgentFiles, mmWorkspaceHooks } from './mm/config.js';
import { SaConfigReadError, defaultSaConfigPath, loadSaConfig, saWorkspaceHooks } from './spatialagent/config.js';
import { ClaudeConfigReadError, claudeWorkspaceHooks, loadClaudeConfig } from './claude/config.js';

/**
 * Whose each mm configuration reachable from `root` through `mmConfigs` is (root included),
 * decided on real paths (trust/owner.ts): an agent file a workspace configuration points at is
 * workspace configuration wherever it is, unless it is in the user's config home.
 */
export function mmConfigOwners(root: string, rootOwner: ConfigOwner, projectDir: string, env: Env = process.env): Map<string, ConfigOwner> {
  const owners = new Map<string, ConfigOwner>([[path.resolve(root), rootOwner]]);
  const queue = [path.resolve(root)];
  while (queue.length) {
    const file = queue.shift()!;
    let agents: string[] = [];
    try {
      agents = Object.values(mmAgentFiles(loadMmConfig(file)));
    } catch (e) {
      if (!(e instanceof MmConfigReadError)) throw e;
    }
    for (const f of agents) {
      const owner = configOwner(f, { projectDir, referrer: owners.get(file), env });
      const had = owners.get(f);
      // Reached from a workspace file anywhere, it is the workspace's.
      if (had === 'workspace' || had === owner) continue;
      owners.set(f, owner);
      queue.push(f);
    }
  }
  return owners;
}

export function findDialectHooks(dir: string, env: Env = process.env): DialectHook[] {
  const out: DialectHook[] = [];
  const add = (load: () => DialectHook[]) => {
    try {
      out.push(...load());
    } catch (e) {
      // A file that cannot be read runs no hook either: nothing to trust.
      if (!(e instanceof MmConfigReadError || e instanceof SaConfigReadError || e instanceof ClaudeConfigReadError)) throw e;
    }
  };
  // With $MM_CONFIG set, agent.yaml in the folder is not read; that file is the user's own.
  const mmFile = defaultMmConfigPath(dir, {});
  if (!env.MM_CONFIG && fs.existsSync(mmFile)) {
    // The agents it can hand off to (and theirs, and so on) are workspace hooks too.
    for (const [f, owner] of mmConfigOwners(mmFile, 'workspace', dir, env)) {
      if (owner === 'workspace' && fs.existsSync(f)) add(() => mmWorkspaceHooks(loadMmConfig(f), dir));
    }
  }
  add(() => saWorkspaceHooks(loadSaConfig(defaultSaConfigPath(dir)), dir));
  add(() => claudeWorkspaceHooks(loadClaudeConfig({ projectDir: dir, env }), dir));
  return out;
}
