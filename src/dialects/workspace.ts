/**
 * The dialect hooks a project folder carries at their usual places: `agent.yaml`,
 * `.spatialagent/settings.json`, `.claude/settings.json` and `.claude/settings.local.json`.
 * For `hookline trust` and `hookline list`; loaded on demand (it pulls in YAML and RE2).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Env } from '../config/paths.js';
import type { DialectHook } from '../trust/dialects.js';
import { MmConfigReadError, defaultMmConfigPath, loadMmConfig, mmAgentFiles, mmWorkspaceHooks } from './mm/config.js';
import { SaConfigReadError, defaultSaConfigPath, loadSaConfig, saWorkspaceHooks } from './spatialagent/config.js';
import { ClaudeConfigReadError, claudeWorkspaceHooks, loadClaudeConfig } from './claude/config.js';

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
    add(() => mmWorkspaceHooks(loadMmConfig(mmFile)));
    // The agents it can hand off to (and theirs, and so on), when their files are in the
    // project, are workspace hooks too.
    const seen = new Set([path.resolve(mmFile)]);
    const queue = [path.resolve(mmFile)];
    while (queue.length) {
      let agents: string[] = [];
      try {
        agents = Object.values(mmAgentFiles(loadMmConfig(queue.shift()!)));
      } catch (e) {
        if (!(e instanceof MmConfigReadError)) throw e;
      }
      for (const f of agents) {
        if (seen.has(f) || path.relative(dir, f).startsWith('..') || !fs.existsSync(f)) continue;
        seen.add(f);
        queue.push(f);
        add(() => mmWorkspaceHooks(loadMmConfig(f)));
      }
    }
  }
  add(() => saWorkspaceHooks(loadSaConfig(defaultSaConfigPath(dir))));
  add(() => claudeWorkspaceHooks(loadClaudeConfig({ projectDir: dir, env })));
  return out;
}
