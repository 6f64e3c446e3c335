// Loads Gemini CLI's hook engine (@google/gemini-cli-core 0.61, installed for the benchmark only,
// never a dependency of Hookline) and fires events through it with a minimal config.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const WORK = path.join(HERE, '.work');
const CORE = path.join(WORK, 'node_modules', '@google', 'gemini-cli-core');

export function ensureReference() {
  if (fs.existsSync(path.join(CORE, 'dist', 'src', 'hooks', 'hookSystem.js'))) return true;
  try {
    fs.mkdirSync(WORK, { recursive: true });
    if (!fs.existsSync(path.join(WORK, 'package.json'))) fs.writeFileSync(path.join(WORK, 'package.json'), '{"private":true}\n');
    process.stderr.write('installing @google/gemini-cli-core@0.61.0 into bench/.work (once)…\n');
    execFileSync('npm', ['install', '--prefix', WORK, '@google/gemini-cli-core@0.61.0', '--ignore-scripts', '--no-audit', '--no-fund'], {
      stdio: 'ignore',
    });
    return true;
  } catch (err) {
    process.stderr.write(`could not install the reference engine: ${err.message}\n`);
    return false;
  }
}

/** A HookSystem on `hooks` (a settings `hooks` block) for the folder `cwd`. */
export async function referenceSystem(hooks, cwd) {
  for (const k of ['log', 'debug', 'info']) console[k] = () => {};
  const { HookSystem } = await import(pathToFileURL(path.join(CORE, 'dist', 'src', 'hooks', 'hookSystem.js')).href);
  const config = {
    getSessionId: () => 'bench-session',
    getWorkingDir: () => cwd,
    getProjectRoot: () => cwd,
    isTrustedFolder: () => true,
    getHooks: () => hooks,
    getProjectHooks: () => undefined,
    getDisabledHooks: () => [],
    getExtensions: () => [],
    getUsageStatisticsEnabled: () => false,
    sanitizationConfig: { allowedEnvironmentVariables: [], blockedEnvironmentVariables: [], enableEnvironmentVariableRedaction: false },
    storage: { getPlansDir: () => path.join(cwd, '.plans') },
    geminiClient: undefined,
  };
  config.config = config;
  const system = new HookSystem(config);
  await system.initialize();
  const handler = system.getEventHandler();
  return {
    beforeTool: (toolName, toolInput) => handler.fireBeforeToolEvent(toolName, toolInput),
    afterTool: (toolName, toolInput, toolResponse) => handler.fireAfterToolEvent(toolName, toolInput, toolResponse),
  };
}
