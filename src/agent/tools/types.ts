import type { z } from 'zod';
import type { ToolFacts } from '../../events/tools.js';
import type { FileChangeDisplay } from './diff.js';

export interface ToolContext {
  cwd: string;
  signal: AbortSignal;
  /** sanitised env for child processes */
  env: Record<string, string>;
  /** run_shell_command's time limit in ms (default 120 000). */
  timeoutMs?: number;
}

export interface ToolResult {
  llmContent: string;
  /** What the user is shown: a line, or a write's or an edit's change (Gemini CLI's shapes). */
  returnDisplay: string | FileChangeDisplay;
  error?: { message: string; type: string };
  /** Programs only: their exit code (a non-zero exit is not a tool error, as in Gemini CLI). */
  exitCode?: number | null;
  /** What the call did, as data (for hooks that expect structured results). */
  facts?: ToolFacts;
}

export interface AgentTool<S extends z.ZodObject = z.ZodObject> {
  name: string; // Gemini CLI name, e.g. 'read_file'
  description: string; // for the model
  parameters: S; // zod schema, Gemini CLI argument names (e.g. file_path, old_string, dir_path)
  kind: 'read' | 'edit' | 'execute'; // edit and execute need the user's approval in default mode; auto_edit approves 'edit' only
  /** one line for approval prompts and notifications, e.g. `WriteFile src/a.ts` or `Shell ls -la` */
  title(args: z.infer<S>): string;
  run(args: z.infer<S>, ctx: ToolContext): Promise<ToolResult>;
  /** Edit tools: the file before and after the change, computed without writing (for approvals). */
  preview?(args: z.infer<S>, ctx: ToolContext): Promise<EditPreview | undefined>;
}

export interface EditPreview {
  filePath: string;
  /** null when the file does not exist yet. */
  originalContent: string | null;
  newContent: string;
}

export function defineTool<S extends z.ZodObject>(t: AgentTool<S>): AgentTool<S> {
  return t;
}
