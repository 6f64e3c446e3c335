import fs from 'node:fs';
import path from 'node:path';
import { compileGlob, type Matcher } from './pattern.js';

interface Rule {
  match: Matcher;
  negate: boolean;
  dirOnly: boolean;
}

/** Rules from one ignore file, relative to the folder holding it ('' for the root). */
interface RuleSet {
  base: string;
  rules: Rule[];
}

/** Parses .gitignore syntax: comments, `!` negation, trailing `/` for folders, anchoring by `/`. */
export function parseIgnore(text: string): Rule[] {
  const rules: Rule[] = [];
  for (let line of text.split(/\r?\n/)) {
    if (!line || line.startsWith('#')) continue;
    // trailing spaces are ignored unless escaped
    while (line.endsWith(' ') && !line.endsWith('\\ ')) line = line.slice(0, -1);
    if (!line) continue;
    let negate = false;
    if (line.startsWith('!')) {
      negate = true;
      line = line.slice(1);
    } else if (line.startsWith('\\!') || line.startsWith('\\#')) line = line.slice(1);
    let dirOnly = false;
    if (line.endsWith('/')) {
      dirOnly = true;
      while (line.endsWith('/')) line = line.slice(0, -1);
    }
    if (!line) continue;
    const anchored = line.includes('/');
    if (line.startsWith('/')) line = line.slice(1);
    const glob = anchored || line.startsWith('**') ? line : `**/${line}`;
    try {
      rules.push({ match: compileGlob(glob), negate, dirOnly });
    } catch {
      // an unusable line is skipped, as git does
    }
  }
  return rules;
}

/** The ignore files that apply while walking one tree. Immutable: `enter` returns a new instance. */
export class IgnoreRules {
  private constructor(private readonly sets: RuleSet[]) {}

  static empty(): IgnoreRules {
    return new IgnoreRules([]);
  }

  /** Adds the rules of `file` (if it exists) for paths under `base`. */
  withFile(file: string, base: string): IgnoreRules {
    let text: string;
    try {
      const st = fs.statSync(file);
      if (!st.isFile() || st.size > 1024 * 1024) return this;
      text = fs.readFileSync(file, 'utf8');
    } catch {
      return this;
    }
    const rules = parseIgnore(text);
    return rules.length ? new IgnoreRules([...this.sets, { base, rules }]) : this;
  }

  /** Is the workspace-relative path `rel` ignored? The last matching rule wins. */
  ignored(rel: string, isDir: boolean): boolean {
    let result = false;
    for (const set of this.sets) {
      let p = rel;
      if (set.base) {
        if (!rel.startsWith(set.base + '/')) continue;
        p = rel.slice(set.base.length + 1);
      }
      for (const r of set.rules) {
        if (r.dirOnly && !isDir) continue;
        if (r.match(p)) result = !r.negate;
      }
    }
    return result;
  }
}

/** True when `dir` is inside a git work tree (Gemini CLI only honours .gitignore there). */
export function inGitRepo(dir: string): boolean {
  for (let d = dir; ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, '.git'))) return true;
    if (path.dirname(d) === d) return false;
  }
}
