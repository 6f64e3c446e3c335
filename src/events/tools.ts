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

/**
 * What a tool call did, as data beside the text the model reads, so a hook system whose hooks
 * expect structured results (Claude Code's `tool_response`) can build them without parsing text.
 * Paths are absolute.
 */
export type ToolFacts =
  /** A program ran (run_shell_command, run_code): its output (stdout and stderr together). */
  | {
      kind: 'shell';
      output: string;
      exitCode: number | null;
      interrupted: boolean;
      /** The output as the program printed it (not trimmed), when the shell kept it whole (Codex's `tool_response`). */
      printed?: string;
    }
  /** Lines of a text file were read; `startLine` is 1-based. */
  | { kind: 'read'; filePath: string; content: string; startLine: number; numLines: number; totalLines: number }
  /** A file was written or edited; `originalContent` is null for a new file. */
  | { kind: 'write'; filePath: string; originalContent: string | null; newContent: string; replacements?: number }
  /** Files were found by name (glob), newest first. */
  | { kind: 'files'; filenames: string[]; truncated: boolean; durationMs: number }
  /** File contents were searched: the files with matches and the lines shown (`isContext` for context lines). */
  | {
      kind: 'search';
      filenames: string[];
      lines: Array<{ file: string; line: number; text: string; isContext: boolean }>;
      matches: number;
      namesOnly: boolean;
      durationMs: number;
    };
