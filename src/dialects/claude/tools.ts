/**
 * The reference agent's tools as Claude Code's: names, arguments and results in the shapes Claude
 * Code's hooks read (its tool schemas: Bash, Read, Write, Edit, Glob, Grep, LS, Agent), and
 * `updatedInput` rewrites translated back to the agent's argument names.
 *
 * Arguments with no Claude counterpart keep their agent name (a hook that spreads `tool_input`
 * into `updatedInput` hands them back unchanged). File paths are absolute, as Claude's are.
 */
import { createHash } from 'node:crypto';
import { structuredPatch } from 'diff';
import { parse } from 'shell-quote';
import type { ToolFacts } from '../../events/tools.js';
import { abs, GREP_CONTEXT_ARGS, GREP_SEARCH_ARGS, has, pick, rest, type Args } from '../args.js';

/** The agent's tool names (Gemini CLI's) and Claude Code's. */
export const CLAUDE_TOOL_NAMES: Readonly<Record<string, string>> = {
  run_shell_command: 'Bash',
  write_file: 'Write',
  replace: 'Edit',
  read_file: 'Read',
  glob: 'Glob',
  search_file_content: 'Grep',
  grep_search: 'Grep',
  list_directory: 'LS',
  ask_agent: 'Agent',
};

/** Claude Code's name for an agent tool; other names (MCP tools, run_code…) unchanged. */
export function claudeToolName(agentName: string): string {
  return Object.hasOwn(CLAUDE_TOOL_NAMES, agentName) ? CLAUDE_TOOL_NAMES[agentName] : agentName;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * A `tool_use_id` shaped like Claude's (`toolu_` and 24 base-62 characters), the same for the
 * same call id every time, so PreToolUse, PostToolUse and the transcript agree.
 */
export function claudeToolUseId(id: string): string {
  if (/^toolu_[A-Za-z0-9]+$/.test(id)) return id;
  const bytes = createHash('sha256').update(id).digest();
  let s = '';
  for (let i = 0; i < 24; i++) s += BASE62[bytes[i] % 62];
  return `toolu_${s}`;
}

/** An agent tool's arguments as Claude Code's `tool_input` for that tool. */
export function claudeToolInput(agentName: string, args: Args, cwd: string): Args {
  switch (claudeToolName(agentName)) {
    case 'Bash':
      return {
        ...pick(args, [
          ['command', 'command'],
          ['description', 'description'],
          ['run_in_background', 'is_background'],
        ]),
        ...rest(args, ['command', 'description', 'is_background']),
      };
    case 'Read': {
      const out: Args = { file_path: abs(cwd, args.file_path) };
      const start = typeof args.start_line === 'number' ? args.start_line : undefined;
      const end = typeof args.end_line === 'number' ? args.end_line : undefined;
      if (start !== undefined) out.offset = start;
      if (end !== undefined) out.limit = end - (start ?? 1) + 1;
      return { ...out, ...rest(args, ['file_path', 'start_line', 'end_line']) };
    }
    case 'Write':
      return { file_path: abs(cwd, args.file_path), content: args.content, ...rest(args, ['file_path', 'content']) };
    case 'Edit':
      return {
        file_path: abs(cwd, args.file_path),
        old_string: args.old_string,
        new_string: args.new_string,
        // Claude Code fills in the schema's default when the model leaves it out.
        replace_all: args.allow_multiple === true,
        ...rest(args, ['file_path', 'old_string', 'new_string', 'allow_multiple']),
      };
    case 'Glob':
      return {
        pattern: args.pattern,
        ...(has(args, 'dir_path') ? { path: abs(cwd, args.dir_path) } : {}),
        ...rest(args, ['pattern', 'dir_path']),
      };
    case 'Grep': {
      // Only what the call said: Claude Code sends the model's own arguments, none of the agent's defaults.
      return {
        pattern: args.pattern,
        ...(has(args, 'dir_path') ? { path: abs(cwd, args.dir_path) } : {}),
        ...pick(args, [['glob', 'include_pattern']]),
        ...(has(args, 'names_only') ? { output_mode: args.names_only === true ? 'files_with_matches' : 'content' } : {}),
        ...(has(args, 'case_sensitive') ? { '-i': args.case_sensitive !== true } : {}),
        ...pick(args, GREP_CONTEXT_ARGS),
        ...rest(args, GREP_SEARCH_ARGS),
      };
    }
    case 'LS':
      return { path: abs(cwd, args.dir_path), ...pick(args, [['ignore', 'ignore']]), ...rest(args, ['dir_path', 'ignore']) };
    case 'Agent':
      return {
        description: `Ask ${String(args.agent ?? '')}`,
        prompt: args.prompt,
        subagent_type: args.agent,
        ...rest(args, ['agent', 'prompt']),
      };
    default:
      return { ...args };
  }
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * A Claude Code `tool_input` (a hook's `updatedInput`) as the agent tool's arguments. Claude's
 * keys are translated; keys it does not have for that tool are passed on under their own name
 * (the tool's schema then accepts or drops them). Omitted Claude options mean Claude's defaults:
 * a Grep without `-i` is case-sensitive, without `output_mode` it lists file names.
 */
export function agentToolInput(agentName: string, input: Args, cwd: string): Args {
  switch (claudeToolName(agentName)) {
    case 'Bash':
      return {
        ...rest(input, ['command', 'description', 'run_in_background', 'timeout']),
        ...pick(input, [
          ['command', 'command'],
          ['description', 'description'],
          ['is_background', 'run_in_background'],
        ]),
      };
    case 'Read': {
      const out: Args = { ...rest(input, ['file_path', 'offset', 'limit', 'pages']), file_path: abs(cwd, input.file_path) };
      const offset = num(input.offset);
      const limit = num(input.limit);
      if (offset !== undefined) out.start_line = Math.max(1, offset);
      if (limit !== undefined) out.end_line = Math.max(1, offset ?? 1) + Math.max(1, limit) - 1;
      return out;
    }
    case 'Write':
      return { ...rest(input, ['file_path', 'content']), file_path: abs(cwd, input.file_path), content: input.content };
    case 'Edit':
      return {
        ...rest(input, ['file_path', 'old_string', 'new_string', 'replace_all']),
        file_path: abs(cwd, input.file_path),
        old_string: input.old_string,
        new_string: input.new_string,
        ...(has(input, 'replace_all') ? { allow_multiple: input.replace_all === true } : {}),
      };
    case 'Glob':
      return {
        ...rest(input, ['pattern', 'path']),
        pattern: input.pattern,
        ...(has(input, 'path') ? { dir_path: abs(cwd, input.path) } : {}),
      };
    case 'Grep': {
      const out: Args = {
        ...rest(input, [
          'pattern',
          'path',
          'glob',
          'output_mode',
          '-i',
          '-n',
          '-A',
          '-B',
          '-C',
          'context',
          'head_limit',
          'offset',
          'type',
          'multiline',
          '-o',
        ]),
        pattern: input.pattern,
        ...(has(input, 'path') ? { dir_path: abs(cwd, input.path) } : {}),
        ...pick(input, [['include_pattern', 'glob']]),
        names_only: input.output_mode !== 'content',
        case_sensitive: input['-i'] !== true,
        ...pick(input, [
          ['after', '-A'],
          ['before', '-B'],
          ['context', 'context'],
          ['context', '-C'],
        ]),
      };
      const head = num(input.head_limit);
      if (head !== undefined && head > 0) out.total_max_matches = head;
      return out;
    }
    case 'LS':
      return { ...rest(input, ['path', 'ignore']), dir_path: abs(cwd, input.path), ...pick(input, [['ignore', 'ignore']]) };
    case 'Agent':
      return {
        ...rest(input, ['description', 'prompt', 'subagent_type', 'model', 'run_in_background', 'name', 'isolation', 'mode']),
        agent: input.subagent_type,
        prompt: input.prompt,
      };
    default:
      return { ...input };
  }
}

/** A patch's hunks as Claude Code reports them (`structuredPatch`, 3 lines of context). */
export function claudePatch(oldText: string, newText: string): Array<Record<string, unknown>> {
  return structuredPatch('', '', oldText, newText, undefined, undefined, { context: 3 }).hunks.map((h) => ({
    oldStart: h.oldStart,
    oldLines: h.oldLines,
    newStart: h.newStart,
    newLines: h.newLines,
    lines: h.lines,
  }));
}

/** The commands Claude Code expects to print nothing when they succeed (its Bash result's `noOutputExpected`). */
const SILENT_COMMANDS: ReadonlySet<string> = new Set([
  'mv',
  'cp',
  'rm',
  'mkdir',
  'rmdir',
  'chmod',
  'chown',
  'chgrp',
  'touch',
  'ln',
  'cd',
  'export',
  'unset',
  'wait',
]);

/** Whether every command of a command line is one of those (`mkdir x && cd x`), as Claude Code decides `noOutputExpected`. */
export function noOutputExpected(command: string): boolean {
  let words: ReturnType<typeof parse>;
  try {
    words = parse(command, (name) => `$${name}`);
  } catch {
    return false;
  }
  let first = true;
  let commands = 0;
  for (const w of words) {
    if (typeof w === 'object' && w !== null && 'op' in w) {
      first = true;
      continue;
    }
    if (!first) continue;
    first = false;
    commands++;
    if (typeof w !== 'string' || !SILENT_COMMANDS.has(w)) return false;
  }
  return commands > 0;
}

/** What Claude Code's model reads of a Bash run: its output, `Exit code N` first when it failed. */
export function claudeBashText(output: string, exitCode: number | null): string {
  const out = output.replace(/\n+$/, '');
  if (exitCode !== null && exitCode !== 0) return `Exit code ${exitCode}${out ? `\n${out}` : ''}`;
  return out || '(Bash completed with no output)';
}

/** What a tool call gave, as the agent's adapters see it (src/dialects/adapter.ts). */
export interface AgentToolResult {
  llmContent: string;
  returnDisplay: unknown;
  error?: { message: string; type?: string };
  facts?: ToolFacts;
}

/**
 * PostToolUse's `tool_response` in Claude Code's shape for the tool: Bash `{stdout, stderr,
 * interrupted, isImage}` (the agent's shell merges stderr into stdout), Read `{type: "text", file}`,
 * Write `{type, filePath, content, structuredPatch, originalFile}`, Edit `{filePath, oldString,
 * newString, originalFile, structuredPatch, userModified, replaceAll}`, Glob `{filenames,
 * durationMs, numFiles, truncated}`, Grep `{mode, numFiles, filenames, content?, numLines?}`,
 * Agent `{status, prompt, content}`; run_code Bash's shape. LS and other tools: the text the model reads.
 */
export function claudeToolResponse(agentName: string, args: Args, result: AgentToolResult): unknown {
  const f = result.facts;
  const name = claudeToolName(agentName);
  if (f?.kind === 'shell')
    return {
      stdout: f.output,
      stderr: '',
      interrupted: f.interrupted,
      isImage: false,
      noOutputExpected: typeof args.command === 'string' && noOutputExpected(args.command),
    };
  if (f?.kind === 'read') {
    const { filePath, content, numLines, startLine, totalLines } = f;
    return { type: 'text', file: { filePath, content, numLines, startLine, totalLines } };
  }
  if (f?.kind === 'write') {
    const patch = f.originalContent === null ? [] : claudePatch(f.originalContent, f.newContent);
    if (name === 'Edit') {
      return {
        filePath: f.filePath,
        oldString: args.old_string,
        newString: args.new_string,
        originalFile: f.originalContent,
        structuredPatch: patch,
        userModified: false,
        replaceAll: args.allow_multiple === true,
      };
    }
    return {
      type: f.originalContent === null ? 'create' : 'update',
      filePath: f.filePath,
      content: typeof args.content === 'string' ? args.content : f.newContent,
      structuredPatch: patch,
      originalFile: f.originalContent,
      userModified: false,
    };
  }
  if (f?.kind === 'files')
    return { filenames: f.filenames, durationMs: f.durationMs, numFiles: f.filenames.length, truncated: f.truncated };
  if (f?.kind === 'search') {
    if (f.namesOnly) return { mode: 'files_with_matches', filenames: f.filenames, numFiles: f.filenames.length };
    // ripgrep's own line format: `path:line:text`, and `path-line-text` for context lines.
    const content = f.lines.map((l) => (l.isContext ? `${l.file}-${l.line}-${l.text}` : `${l.file}:${l.line}:${l.text}`)).join('\n');
    return { mode: 'content', numFiles: f.filenames.length, filenames: f.filenames, content, numLines: f.lines.length };
  }
  if (name === 'Agent')
    return { status: 'completed', prompt: args.prompt, agentType: args.agent, content: [{ type: 'text', text: result.llmContent }] };
  return result.llmContent;
}
