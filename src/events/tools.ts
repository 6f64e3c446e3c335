/**
 * Tool names a tool matcher can mean: the reference agent's tools (src/agent/tools) and Gemini
 * CLI's own, so a settings file shared with Gemini CLI is not warned about. Kept here, low in the
 * pipeline, so validation can check matchers without loading the agent.
 */
export const AGENT_TOOL_NAMES = [
  'read_file',
  'write_file',
  'replace',
  'list_directory',
  'glob',
  'search_file_content',
  'run_shell_command',
  'run_code',
  'ask_agent',
] as const;

/** Gemini CLI's tools that the reference agent does not have, and legacy aliases. */
export const OTHER_TOOL_NAMES = ['grep_search', 'read_many_files', 'web_fetch', 'google_web_search', 'save_memory', 'write_todos'] as const;

export const KNOWN_TOOL_NAMES: readonly string[] = [...AGENT_TOOL_NAMES, ...OTHER_TOOL_NAMES];
