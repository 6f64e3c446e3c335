import { glob } from './glob.js';
import { grepSearch } from './grep-search.js';
import { listDirectory } from './list-directory.js';
import { readFile } from './read-file.js';
import { replace } from './replace.js';
import { runShellCommand } from './shell.js';
import type { AgentTool } from './types.js';
import { writeFile } from './write-file.js';

export { defineTool } from './types.js';
export type { AgentTool, ToolContext, ToolResult } from './types.js';

/**
 * Old tool names Gemini CLI still accepts (tool-names.js TOOL_LEGACY_ALIASES):
 * 0.61 registers the search tool as `grep_search`.
 */
export const TOOL_ALIASES: Readonly<Record<string, string>> = { search_file_content: 'grep_search' };

/** The agent's built-in tools, with Gemini CLI's names and argument names. */
export function builtinTools(): AgentTool[] {
  return [readFile, writeFile, replace, listDirectory, glob, grepSearch, runShellCommand];
}

/** Looks a tool up by name, accepting legacy aliases. */
export function findTool(tools: readonly AgentTool[], name: string): AgentTool | undefined {
  return tools.find((t) => t.name === name) ?? tools.find((t) => t.name === TOOL_ALIASES[name]);
}
