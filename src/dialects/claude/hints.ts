/**
 * A tool matcher that misspells a Claude Code tool (`bash`, `Bsh`): Claude Code matches tool names
 * case-sensitively, so the hook never runs. Only a near miss of a known name is said: a name far
 * from every known one may be a tool this list does not have (an MCP server's, a newer one).
 */
import type { ConfigProblem } from '../../config/problems.js';
import { closestName } from '../../config/suggest.js';
import type { ClaudeHook } from './config.js';
import { TOOL_EVENTS } from './events.js';

/** Claude Code's tools (its SDK's names), as a matcher names them. */
const CLAUDE_CODE_TOOLS = [
  'Agent',
  'AskUserQuestion',
  'Bash',
  'BashOutput',
  'Edit',
  'EnterPlanMode',
  'ExitPlanMode',
  'Glob',
  'Grep',
  'KillShell',
  'LS',
  'LSP',
  'ListMcpResourcesTool',
  'MultiEdit',
  'NotebookEdit',
  'NotebookRead',
  'Read',
  'ReadMcpResourceTool',
  'Skill',
  'SlashCommand',
  'Task',
  'TaskOutput',
  'TaskStop',
  'TodoWrite',
  'ToolSearch',
  'WebFetch',
  'WebSearch',
  'Write',
] as const;

const KNOWN = new Set<string>(CLAUDE_CODE_TOOLS);

/** The known tool a word of a plain matcher (names joined by `|`) was most likely meant as, when it names none. */
export function claudeMatcherHint(matcher: string): string | undefined {
  if (!/^[A-Za-z_]+(\|[A-Za-z_]+)*$/.test(matcher)) return undefined;
  for (const word of matcher.split('|')) {
    if (KNOWN.has(word)) continue;
    const same = CLAUDE_CODE_TOOLS.find((t) => t.toLowerCase() === word.toLowerCase());
    const near = closestName(word, CLAUDE_CODE_TOOLS);
    const hint =
      same ?? (near && Math.abs(near.length - word.length) <= 2 && near[0].toLowerCase() === word[0].toLowerCase() ? near : undefined);
    if (hint)
      return `matcher "${matcher}": "${word}" is no Claude Code tool (tool names are matched case-sensitively) — did you mean "${hint}"?`;
  }
  return undefined;
}

/** One warning per group whose tool matcher misspells a tool. */
export function claudeHints(hooks: readonly ClaudeHook[]): ConfigProblem[] {
  const out: ConfigProblem[] = [];
  const seen = new Set<string>();
  for (const h of hooks) {
    if (!TOOL_EVENTS.has(h.event) || h.matcher === undefined) continue;
    const at = `${h.path.replace(/\.hooks\[\d+\]$/, '')}.matcher`;
    if (seen.has(`${h.file}\0${at}`)) continue;
    seen.add(`${h.file}\0${at}`);
    const message = claudeMatcherHint(h.matcher);
    if (message) out.push({ file: h.file, path: at, message, severity: 'warning' });
  }
  return out;
}
