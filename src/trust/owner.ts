/**
 * Whose a configuration file is, decided on its real path (symlinks, `..`, `/proc/self/cwd`
 * resolved), never on how the path is spelled. `workspace` configuration runs only in a trusted
 * folder and only once its hooks are trusted.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isInside, userGeminiDir, type Env } from '../config/paths.js';

export type ConfigOwner = 'user' | 'workspace';

export interface OwnerOptions {
  /** The project (workspace) folder. */
  projectDir: string;
  /** The user named this file (--config, --mm-config, $MM_CONFIG): their own choice. */
  named?: boolean;
  /** Whose the file that pointed at this one is (an mm `mmConfigs` entry); a workspace's pointer owns nothing. */
  referrer?: ConfigOwner;
  env?: Env;
}

/** The real path of a file, or of its nearest existing folder with the rest appended (a missing file). */
export function realPathOf(file: string): string {
  const abs = path.resolve(file);
  try {
    return fs.realpathSync(abs);
  } catch {
    const parent = path.dirname(abs);
    return parent === abs ? abs : path.join(realPathOf(parent), path.basename(abs));
  }
}

/** The user's own configuration homes: `~/.gemini` (or $GEMINI_CLI_HOME's) and `~/.claude`. */
export function userConfigHomes(env: Env = process.env): string[] {
  return [userGeminiDir(env), path.join(env.HOME || os.homedir(), '.claude')].map(realPathOf);
}

/**
 * `user` for a file the user named, or whose real path is in the user's config home, or that is
 * outside the project and pointed at by a file of the user's; everything else is `workspace`:
 * inside the project (by its real path or as spelled), or outside every workspace without the
 * user having named it.
 */
export function configOwner(file: string, opts: OwnerOptions): ConfigOwner {
  if (opts.named) return 'user';
  const real = realPathOf(file);
  if (userConfigHomes(opts.env ?? process.env).some((home) => isInside(home, real))) return 'user';
  // A path spelled inside the project is the project's, wherever its link points.
  if (isInside(realPathOf(opts.projectDir), real) || isInside(path.resolve(opts.projectDir), path.resolve(file))) return 'workspace';
  return opts.referrer === 'user' ? 'user' : 'workspace';
}
