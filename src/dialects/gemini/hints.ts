/**
 * Warnings for settings that load but probably do not do what was meant: a tool matcher that
 * matches no known tool (a typo: "did you mean"), and a timeout that looks like seconds.
 */
import type { ConfigProblem } from '../../config/problems.js';
import type { HookEntry } from '../../config/schema.js';
import { closestName } from '../../config/suggest.js';
import { CATALOG } from '../../events/catalog.js';
import { KNOWN_TOOL_NAMES } from '../../events/tools.js';
import { compileMatcher } from '../../plan/matcher.js';
import { msTimeoutHint } from '../../engine/advice.js';

/** A matcher naming an MCP tool (`mcp__server__tool`) or written as a pattern over unknown names is not checked. */
const isMcp = (m: string) => /mcp|__/.test(m);

export function matcherHint(event: HookEntry['event'], matcher: string | undefined): string | undefined {
  if (matcher === undefined || CATALOG[event].matchOn.kind !== 'tool') return undefined;
  const m = matcher.trim();
  if (m === '' || m === '*' || isMcp(m)) return undefined;
  try {
    new RegExp(m);
  } catch {
    return undefined; // reported as an invalid regular expression already
  }
  const matches = compileMatcher(event, m);
  if (KNOWN_TOOL_NAMES.some((t) => matches(t))) return undefined;
  const words = m.split('|').map((w) => w.replace(/^\^|\$$/g, ''));
  const hint = words.map((w) => closestName(w, KNOWN_TOOL_NAMES)).find((h) => h !== undefined);
  return `matcher "${matcher}" matches no tool the agent knows — ${hint ? `did you mean "${hint}"?` : `tools: ${KNOWN_TOOL_NAMES.join(', ')}`}`;
}

/** One warning per hook definition's matcher, and per hook timeout, that looks wrong. */
export function settingsHints(entries: readonly HookEntry[]): ConfigProblem[] {
  const out: ConfigProblem[] = [];
  const seen = new Set<string>();
  for (const e of entries) {
    if (!e.file || !e.path) continue;
    const matcherPath = `${e.path.replace(/\.hooks\[\d+\]$/, '')}.matcher`;
    const mh = matcherHint(e.event, e.matcher);
    if (mh && !seen.has(`${e.file}\0${matcherPath}`)) {
      seen.add(`${e.file}\0${matcherPath}`);
      out.push({ file: e.file, path: matcherPath, message: mh, severity: 'warning' });
    }
    const th = e.hook.type === 'command' ? msTimeoutHint(e.hook.timeout) : undefined;
    if (th) out.push({ file: e.file, path: `${e.path}.timeout`, message: th, severity: 'warning' });
  }
  return out;
}
