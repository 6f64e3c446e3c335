import fs from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** Rules from one ignore file, relative to the folder holding it ('' for the root). */
interface RuleSet {
  base: string;
  rules: Ignore;
}

/** The ignore files that apply while walking one tree. Immutable: `withFile` returns a new instance. */
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
    if (!text.split(/\r?\n/).some((line) => line.trim() && !line.startsWith('#'))) return this;
    return new IgnoreRules([...this.sets, { base, rules: ignore().add(text) }]);
  }

  /** Is the workspace-relative path `rel` ignored? A deeper file's verdict overrides the ones above. */
  ignored(rel: string, isDir: boolean): boolean {
    let result = false;
    for (const set of this.sets) {
      let p = rel;
      if (set.base) {
        if (!rel.startsWith(set.base + '/')) continue;
        p = rel.slice(set.base.length + 1);
      }
      if (!ignore.isPathValid(p)) continue; // the folder itself, never ignored by its own rules
      const verdict = set.rules.test(isDir ? `${p}/` : p);
      if (verdict.ignored) result = true;
      else if (verdict.unignored) result = false;
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
