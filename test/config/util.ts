// Shared pieces for the configuration, trust and management tests.
import fs from 'node:fs';
import path from 'node:path';
import { HookEngine } from '../../src/engine/index.js';
import { loadConfig } from '../../src/config/load.js';
import { geminiFingerprint, trustHooks } from '../../src/trust/fingerprints.js';
import { writeTrustedFolder } from '../../src/trust/folders.js';
import { cmd, hook, makeProject, type Project, type ProjectOptions } from '../helpers.js';

export interface MarkProject extends Project {
  /** Every hook made with `mark` appends its label here when it runs. */
  marker: string;
  /** Labels of the hooks that ran, in order (empty when none did). */
  ran: () => string[];
  /** Project settings file. */
  projectFile: string;
  /** User settings file. */
  userFile: string;
  /** System settings file. */
  systemFile: string;
  /** Builds an engine for the project (settings not watched unless asked). */
  engine: (opts?: { watchConfig?: boolean; env?: NodeJS.ProcessEnv }) => HookEngine;
}

/** makeProject plus a marker file, and helpers to see which hooks ran. */
export function markProject(opts: ProjectOptions = {}): MarkProject {
  const p = makeProject(opts);
  const base = path.dirname(p.dir);
  const marker = path.join(base, 'ran.txt');
  return {
    ...p,
    marker,
    ran: () => (fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8').split('\n').filter(Boolean) : []),
    projectFile: path.join(p.dir, '.gemini', 'settings.json'),
    userFile: path.join(p.home, '.gemini', 'settings.json'),
    systemFile: p.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH!,
    engine: (o = {}) => new HookEngine({ cwd: p.dir, env: o.env ?? p.env, watchConfig: o.watchConfig ?? false }),
  };
}

/**
 * A command hook that appends `label` to `marker` when it runs. The marker path is fixed per
 * test run, so tests build the settings after `markProject` via `markerFor`.
 */
export function mark(marker: string, label: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return cmd(`${hook('cfg-mark.sh')} '${marker}' ${label}`, { name: label, ...extra });
}

/** A project whose settings reference its own marker file: `build(marker)` returns the options. */
export function projectWith(build: (marker: string) => ProjectOptions): MarkProject {
  const p = markProject({ trusted: false });
  const opts = build(p.marker);
  write(p.projectFile, opts.project);
  write(p.userFile, opts.user);
  write(p.systemFile, opts.system);
  if (opts.trusted !== false) trustAll(p);
  return p;
}

/** Writes settings (object as JSON, string as is); undefined leaves the file alone. */
export function write(file: string, content: unknown): void {
  if (content === undefined) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
}

/** Trusts the project folder and fingerprints its current workspace hooks, as `hookline trust`. */
export function trustAll(p: Project): void {
  writeTrustedFolder(p.dir, 'TRUST_FOLDER', p.env);
  trustHooks(p.dir, loadConfig({ projectDir: p.dir, env: p.env }).entries, p.env);
}

/** Labels written by hooks that ran, for a marker file. */
export function ranFrom(marker: string): string[] {
  return fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8').split('\n').filter(Boolean) : [];
}

/** The keys `hookline trust` records for the project's Gemini hooks: each new key, then `name:command`. */
export function expectedKeys(p: Project): string[] {
  return loadConfig({ projectDir: p.dir, env: p.env })
    .entries.filter((e) => e.source === 'project')
    .flatMap((e) => {
      const fp = geminiFingerprint(e, p.dir);
      return [fp.key!, fp.legacy!];
    });
}
