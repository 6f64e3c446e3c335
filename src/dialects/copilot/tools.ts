/**
 * The reference agent's tools as Copilot CLI's: names and arguments in the shapes its hooks read
 * (`toolName: "bash"`, `toolArgs: {command, description}`), the Claude names its PascalCase
 * payloads carry (`tool_name: "Bash"`), and a hook's rewrite (`modifiedArgs`, `updatedInput`)
 * translated back to the agent's argument names.
 *
 * Arguments with no Copilot counterpart keep their agent name. Paths are absolute, as Copilot's are.
 */
import path from 'node:path';
import { diffArrays } from 'diff';
import type { ToolFacts } from '../../events/tools.js';
import { abs, GREP_CONTEXT_ARGS, GREP_SEARCH_ARGS, has, pick, rest, type Args } from '../args.js';

/** The agent's tool names and Copilot CLI's. */
export const COPILOT_TOOL_NAMES: Readonly<Record<string, string>> = {
  run_shell_command: 'bash',
  read_file: 'view',
  list_directory: 'view',
  write_file: 'create',
  replace: 'edit',
  glob: 'glob',
  search_file_content: 'grep',
  grep_search: 'grep',
  ask_agent: 'task',
};

/** Copilot's tool names as its Claude-format (PascalCase) payloads and matchers name them. */
export const COPILOT_CLAUDE_NAMES: Readonly<Record<string, string>> = {
  bash: 'Bash',
  view: 'Read',
  create: 'Write',
  edit: 'Edit',
  glob: 'Glob',
  grep: 'Grep',
  task: 'Task',
};

/** Copilot CLI's name for an agent tool; other names (MCP tools, run_code…) unchanged. */
export function copilotToolName(agentName: string): string {
  return Object.hasOwn(COPILOT_TOOL_NAMES, agentName) ? COPILOT_TOOL_NAMES[agentName] : agentName;
}

/** The name a Claude-format payload carries for a Copilot tool (`bash` → `Bash`); other names unchanged. */
export function copilotClaudeName(copilotName: string): string {
  return Object.hasOwn(COPILOT_CLAUDE_NAMES, copilotName) ? COPILOT_CLAUDE_NAMES[copilotName] : copilotName;
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** An agent tool's arguments as Copilot CLI's `toolArgs` for that tool: only what the call gave. */
export function copilotToolArgs(agentName: string, args: Args, cwd: string): Args {
  switch (agentName) {
    case 'run_shell_command':
      return {
        ...pick(args, [
          ['command', 'command'],
          ['description', 'description'],
        ]),
        ...rest(args, ['command', 'description']),
      };
    case 'read_file': {
      const start = num(args.start_line);
      const end = num(args.end_line);
      const range = start !== undefined || end !== undefined ? { view_range: [start ?? 1, end ?? -1] } : {};
      return { path: abs(cwd, args.file_path), ...range, ...rest(args, ['file_path', 'start_line', 'end_line']) };
    }
    case 'list_directory':
      return { path: abs(cwd, args.dir_path), ...rest(args, ['dir_path']) };
    case 'write_file':
      return { path: abs(cwd, args.file_path), file_text: args.content, ...rest(args, ['file_path', 'content']) };
    case 'replace':
      return {
        path: abs(cwd, args.file_path),
        old_str: args.old_string,
        new_str: args.new_string,
        ...rest(args, ['file_path', 'old_string', 'new_string']),
      };
    case 'glob':
      return {
        pattern: args.pattern,
        ...(has(args, 'dir_path') ? { paths: abs(cwd, args.dir_path) } : {}),
        ...rest(args, ['pattern', 'dir_path']),
      };
    case 'search_file_content':
    case 'grep_search':
      return {
        pattern: args.pattern,
        ...(has(args, 'dir_path') ? { paths: abs(cwd, args.dir_path) } : {}),
        ...pick(args, [['glob', 'include_pattern']]),
        // Copilot's defaults (file names only, case-sensitive) are left out, as its calls leave them out.
        ...(has(args, 'names_only') && args.names_only !== true ? { output_mode: 'content' } : {}),
        ...(has(args, 'case_sensitive') && args.case_sensitive !== true ? { '-i': true } : {}),
        ...pick(args, GREP_CONTEXT_ARGS),
        ...rest(args, GREP_SEARCH_ARGS),
      };
    case 'ask_agent':
      return { description: `Ask ${String(args.agent ?? '')}`, prompt: args.prompt, name: args.agent, ...rest(args, ['agent', 'prompt']) };
    default:
      return { ...args };
  }
}

/**
 * Copilot `toolArgs` (a hook's `modifiedArgs` or `updatedInput`) as the agent tool's arguments.
 * Copilot's keys are translated; keys it does not have for that tool pass under their own name.
 */
export function agentToolArgs(agentName: string, input: Args, cwd: string): Args {
  switch (agentName) {
    case 'run_shell_command':
      return {
        ...rest(input, ['command', 'description', 'mode', 'shellId', 'detach', 'initial_wait']),
        ...pick(input, [
          ['command', 'command'],
          ['description', 'description'],
        ]),
      };
    case 'read_file': {
      const out: Args = { ...rest(input, ['path', 'view_range', 'forceReadLargeFiles']), file_path: abs(cwd, input.path) };
      const range = Array.isArray(input.view_range) ? input.view_range : undefined;
      const start = num(range?.[0]);
      const end = num(range?.[1]);
      if (start !== undefined && start >= 1) out.start_line = start;
      if (end !== undefined && end >= 1) out.end_line = end;
      return out;
    }
    case 'list_directory':
      return { ...rest(input, ['path']), dir_path: abs(cwd, input.path) };
    case 'write_file':
      return { ...rest(input, ['path', 'file_text']), file_path: abs(cwd, input.path), content: input.file_text };
    case 'replace':
      return {
        ...rest(input, ['path', 'old_str', 'new_str']),
        file_path: abs(cwd, input.path),
        old_string: input.old_str,
        new_string: input.new_str,
      };
    case 'glob': {
      const paths = Array.isArray(input.paths) ? input.paths[0] : input.paths;
      return {
        ...rest(input, ['pattern', 'paths']),
        pattern: input.pattern,
        ...(paths !== undefined ? { dir_path: abs(cwd, paths) } : {}),
      };
    }
    case 'search_file_content':
    case 'grep_search': {
      const paths = Array.isArray(input.paths) ? input.paths[0] : input.paths;
      const out: Args = {
        ...rest(input, ['pattern', 'paths', 'glob', 'output_mode', '-i', '-n', '-A', '-B', '-C', 'head_limit', 'type', 'multiline']),
        pattern: input.pattern,
        ...(paths !== undefined ? { dir_path: abs(cwd, paths) } : {}),
        ...pick(input, [['include_pattern', 'glob']]),
        names_only: input.output_mode !== 'content',
        case_sensitive: input['-i'] !== true,
        ...pick(input, [
          ['after', '-A'],
          ['before', '-B'],
          ['context', '-C'],
        ]),
      };
      const head = num(input.head_limit);
      if (head !== undefined && head > 0) out.total_max_matches = head;
      return out;
    }
    case 'ask_agent':
      return {
        ...rest(input, ['description', 'prompt', 'name', 'agent_type', 'model', 'reasoning_effort', 'context_tier', 'mode']),
        agent: input.name,
        prompt: input.prompt,
      };
    default:
      return { ...input };
  }
}

/** The agent's tool for a Copilot tool call the suite or a fixture names (`bash` → run_shell_command; `view` of a file → read_file). */
export function agentToolFor(copilotName: string, input: Args): string {
  if (copilotName === 'view') return typeof input.path === 'string' && input.path.endsWith('/') ? 'list_directory' : 'read_file';
  const found = Object.entries(COPILOT_TOOL_NAMES).find(
    ([agent, c]) => c === copilotName && agent !== 'grep_search' && agent !== 'list_directory',
  );
  return found ? found[0] : copilotName;
}

/** What a tool call gave, as the agent's adapters see it (src/dialects/adapter.ts). */
export interface AgentToolResult {
  llmContent: string;
  error?: { message: string; type?: string };
  facts?: ToolFacts;
}

const rel = (cwd: string, file: string) => {
  const r = path.relative(cwd, file);
  return r.startsWith('..') || path.isAbsolute(r) ? file : `./${r}`;
};

/**
 * A call's `textResultForLlm` as Copilot CLI's tools word it, from what the call did: a shell run
 * `<output>\n<shellId: N completed with exit code C>`, a file read its text, a new file
 * `Created file <path> with N characters`, an edit `File <path> updated with changes.`, found
 * files and matching files one `./path` a line. Other tools: the text the model reads.
 */
export function copilotToolResult(agentName: string, result: AgentToolResult, cwd: string, shellId: number): string {
  const f = result.facts;
  if (f?.kind === 'shell')
    return `${f.output.replace(/\n$/, '')}\n<shellId: ${shellId} completed with exit code ${f.exitCode ?? 'unknown'}>`;
  if (f?.kind === 'read') return f.content;
  if (f?.kind === 'write') {
    if (agentName === 'write_file' && f.originalContent === null)
      return `Created file ${f.filePath} with ${f.newContent.length} characters`;
    return `File ${f.filePath} updated with changes.`;
  }
  if (f?.kind === 'files' || f?.kind === 'search') return f.filenames.map((n) => rel(cwd, n)).join('\n');
  return result.llmContent;
}

/**
 * A failed call's `error` as Copilot CLI's tools word it: a path to read or list that is not
 * there is `Path does not exist`; other failures keep the agent's message.
 */
export function copilotToolError(agentName: string, message: string): string {
  if ((agentName === 'read_file' || agentName === 'list_directory') && /not found|does not exist|ENOENT|no such file/i.test(message))
    return 'Path does not exist';
  return message;
}

/** The permission a call needs before it runs, as Copilot CLI's permissionRequest names it: `bash` for a program, `edit` for a file change. */
export const PERMISSION_KINDS: Readonly<Record<string, 'bash' | 'edit'>> = {
  run_shell_command: 'bash',
  run_code: 'bash',
  write_file: 'edit',
  replace: 'edit',
};

/** Lines of a text as a diff counts them. */
function linesOf(text: string): string[] {
  return text.split('\n');
}

/** A unified diff's hunks (3 lines of context) between two line lists, as text. */
function hunks(a: readonly string[], b: readonly string[]): string {
  const ops = diffArrays(a as string[], b as string[]);
  const lines: Array<{ tag: ' ' | '-' | '+'; text: string; oldNo: number; newNo: number }> = [];
  let o = 1;
  let n = 1;
  for (const op of ops)
    for (const v of op.value) {
      if (op.added) lines.push({ tag: '+', text: v, oldNo: o, newNo: n++ });
      else if (op.removed) lines.push({ tag: '-', text: v, oldNo: o++, newNo: n });
      else lines.push({ tag: ' ', text: v, oldNo: o++, newNo: n++ });
    }
  const changed = lines.map((l, i) => (l.tag !== ' ' ? i : -1)).filter((i) => i >= 0);
  if (!changed.length) return '';
  const groups: Array<[number, number]> = [];
  for (const i of changed) {
    const from = Math.max(0, i - 3);
    const to = Math.min(lines.length - 1, i + 3);
    const last = groups.at(-1);
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else groups.push([from, to]);
  }
  return groups
    .map(([from, to]) => {
      const part = lines.slice(from, to + 1);
      const oldCount = part.filter((l) => l.tag !== '+').length;
      const newCount = part.filter((l) => l.tag !== '-').length;
      const head = `@@ -${part[0].oldNo},${oldCount} +${part[0].newNo},${newCount} @@`;
      return [head, ...part.map((l) => `${l.tag}${l.text}`)].join('\n');
    })
    .join('\n');
}

/** A file change as Copilot CLI's permissionRequest shows it (`toolInput.diff`): git's form, the new file's lines for a file made. */
export function copilotDiff(file: string, original: string | null, next: string): string {
  if (original === null) {
    const added = linesOf(next.replace(/\n$/, ''));
    return `\ndiff --git a${file} b${file}\ncreate file mode 100644\nindex 0000000..0000000\n--- a/dev/null\n+++ b${file}\n@@ -1,0 +1,${added.length} @@\n${added.map((l) => `+${l}`).join('\n')}\n`;
  }
  return `\ndiff --git a${file} b${file}\nindex 0000000..0000000 100644\n--- a${file}\n+++ b${file}\n${hunks(linesOf(original), linesOf(next))}\n`;
}
