/** What is said about workspace hooks that will not run here, with the command that changes it. */
import { displayName } from '../config/entry.js';
import type { Env } from '../config/paths.js';
import { geminiReview, geminiReviewed } from '../trust/fingerprints.js';
import { changeDescriber } from '../trust/reviewed.js';
import { reviewLines } from '../trust/review.js';
import type { HeldHook, HookContext } from './context.js';

/** Says which workspace hooks will not run here, and how to change that. */
export function heldWarnings(ctx: Pick<HookContext, 'held' | 'projectDir'> & { env?: NodeJS.ProcessEnv }): string[] {
  const out: string[] = [];
  const folder = ctx.held.filter((h) => h.reason === 'untrusted-folder');
  const hooks = ctx.held.filter((h) => h.reason === 'untrusted-hook');
  if (folder.length) {
    out.push(
      `${ctx.projectDir} is not a trusted folder: its ${folder.length} workspace hook(s) do not run. Review .gemini/settings.json, then run: hookline trust ${JSON.stringify(ctx.projectDir)}`,
    );
  }
  if (hooks.length) {
    const describeChange = changeDescriber(ctx.projectDir, (ctx.env ?? process.env) as Env);
    const line = (h: HeldHook) => {
      const change = h.problem ? ` [cannot be trusted: ${h.problem}]` : describeChange(geminiReviewed(h.entry, ctx.projectDir));
      const under = reviewLines(geminiReview(h.entry)).map((l) => `\n      ${l}`);
      return `  - ${displayName(h.entry.hook)} (${h.entry.event}, ${h.entry.path})${change ? (h.problem ? change : `: ${change}`) : ''}${under.join('')}`;
    };
    out.push(
      `new or changed workspace hook(s) held back until trusted (run: hookline trust ${JSON.stringify(ctx.projectDir)}):\n${hooks.map(line).join('\n')}`,
    );
  }
  return out;
}

/** Identifies a set of held hooks, so the same set is said once. */
export function heldKey(held: readonly HeldHook[]): string {
  return held
    .map((h) => `${h.reason}\0${h.entry.event}\0${displayName(h.entry.hook)}\0${h.entry.file ?? ''}\0${h.entry.path ?? ''}`)
    .join('\n');
}
