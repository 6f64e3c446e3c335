import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hook, trustDialectHooks } from '../helpers.js';
import { parseMmConfig, type MmConfig } from '../../src/dialects/mm/config.js';
import { parseSaConfig, type SaConfig } from '../../src/dialects/spatialagent/config.js';

export { hook as fx };

/** Fresh empty folder (the session or project folder of a test). */
export function tmpDir(prefix = 'hookline-dialect-'): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

/** Writes a value as a file (JSON unless it is text already), making its folders. */
export function writeFile(file: string, v: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof v === 'string' ? v : JSON.stringify(v, null, 2));
}

/**
 * A project folder with a home of its own (HOME and GEMINI_CLI_HOME), no system settings and
 * no trust assumed from the environment; `project` and `home` files are written by their path
 * below each; with `trusted`, the folder is trusted and its dialect hooks recorded.
 */
export function dialectProject(opts: {
  prefix: string;
  project?: Record<string, unknown>;
  home?: Record<string, unknown>;
  trusted?: boolean;
}) {
  const base = tmpDir(opts.prefix);
  const dir = path.join(base, 'project');
  const home = path.join(base, 'home');
  fs.mkdirSync(dir, { recursive: true });
  fs.mkdirSync(path.join(home, '.gemini'), { recursive: true });
  for (const [rel, v] of Object.entries(opts.project ?? {})) if (v !== undefined) writeFile(path.join(dir, rel), v);
  for (const [rel, v] of Object.entries(opts.home ?? {})) if (v !== undefined) writeFile(path.join(home, rel), v);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    GEMINI_CLI_HOME: home,
    GEMINI_CLI_SYSTEM_SETTINGS_PATH: path.join(base, 'none.json'),
  };
  for (const k of ['GEMINI_CLI_TRUST_WORKSPACE', 'GITHUB_SHA', 'HOOKLINE_SOCKET']) delete env[k];
  if (opts.trusted) {
    fs.writeFileSync(path.join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [dir]: 'TRUST_FOLDER' }));
    trustDialectHooks(dir, home);
  }
  return { base, dir, home, env, write: writeFile };
}

/** Single-quotes a string for sh. */
export function q(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Writes `agent.yaml` in a fresh folder and loads it; throws on configuration errors. */
export function mmSetup(yaml: string): { dir: string; file: string; config: MmConfig } {
  const dir = tmpDir('hookline-mm-');
  const file = path.join(dir, 'agent.yaml');
  fs.writeFileSync(file, yaml);
  const config = parseMmConfig(yaml, file);
  if (config.errors.length) throw new Error(config.errors.map((e) => e.message).join('\n'));
  return { dir, file, config };
}

/** The configuration of one event's hooks, written as YAML list items from {command, …} objects. */
export function mmYaml(hooks: Record<string, Array<Record<string, string>>>): string {
  let y = 'hooks:\n';
  for (const [event, list] of Object.entries(hooks)) {
    y += `  ${event}:\n`;
    for (const h of list) {
      const entries = Object.entries(h);
      entries.forEach(([k, v], i) => {
        y += `${i === 0 ? '    - ' : '      '}${k}: ${JSON.stringify(v)}\n`;
      });
    }
  }
  return y;
}

/** Writes `.spatialagent/settings.json` in a fresh project folder and loads it. */
export function saSetup(settings: unknown): { dir: string; file: string; config: SaConfig } {
  const dir = tmpDir('hookline-sa-');
  const file = path.join(dir, '.spatialagent', 'settings.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const text = typeof settings === 'string' ? settings : JSON.stringify(settings, null, 2);
  fs.writeFileSync(file, text);
  return { dir, file, config: parseSaConfig(text, file) };
}

/** Every file or folder called `name` under `root`. */
export function findNamed(root: string, name: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.name === name) found.push(p);
      if (e.isDirectory()) walk(p);
    }
  };
  walk(root);
  return found;
}

export const read = (file: string) => fs.readFileSync(file, 'utf8');
