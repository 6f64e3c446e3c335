import { glob } from './glob.js';
import { grepSearch } from './grep-search.js';
import { listDirectory } from './list-directory.js';
import { readFile } from './read-file.js';
import { replace } from './replace.js';
import { runShellCommand } from './shell.js';
import { runCode } from './run-code.js';
import type { AgentTool } from './types.js';
import { writeFile } from './write-file.js';

export { defineTool } from './types.js';
export type { AgentTool, ToolContext, ToolResult } from './types.js';

/**
 * Other names for the same tool. Gemini CLI 0.61 registers the search tool as `grep_search` and
 * keeps `search_file_content` as its legacy alias; Hookline's documented name is
 * `search_file_content`, and a model that calls `grep_search` reaches the same tool.
 */
export const TOOL_ALIASES: Readonly<Record<string, string>> = { grep_search: 'search_file_content' };

/** The agent's built-in tools, with Gemini CLI's names and argument names. */
export function builtinTools(): AgentTool[] {
  return [readFile, writeFile, replace, listDirectory, glob, grepSearch, runShellCommand, runCode];
}

/** Looks a tool up by name, accepting legacy aliases. */
export function findTool(tools: readonly AgentTool[], name: string): AgentTool | undefined {
  return tools.find((t) => t.name === name) ?? tools.find((t) => t.name === TOOL_ALIASES[name]);
}
