import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hook } from '../helpers.js';
import { parseMmConfig, type MmConfig } from '../../src/dialects/mm/config.js';
import { parseSaConfig, type SaConfig } from '../../src/dialects/spatialagent/config.js';

export { hook as fx };

/** Fresh empty folder (the session or project folder of a test). */
export function tmpDir(prefix = 'hookline-dialect-'): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
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
