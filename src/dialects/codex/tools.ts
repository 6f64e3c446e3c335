/**
 * The reference agent's tools as Codex's hooks see them. Codex gives its hooks three tool
 * identities: its shell (`Bash`, `tool_input: {command}`), its file edits (`apply_patch`, also
 * matched as `Write` and `Edit`, `tool_input: {command: <the patch>}`) and its sub-agents
 * (`spawn_agent`, also matched as `Agent`); MCP tools keep their `mcp__server__tool` names. The
 * agent's other tools have no Codex counterpart (Codex reads and searches through its shell) and
 * keep their own names and arguments.
 */
import path from 'node:path';

export interface CodexTool {
  name: string;
  /** More names its matchers are tested against. */
  aliases: string[];
}

const TOOLS: Readonly<Record<string, CodexTool>> = {
  run_shell_command: { name: 'Bash', aliases: [] },
  write_file: { name: 'apply_patch', aliases: ['Write', 'Edit'] },
  replace: { name: 'apply_patch', aliases: ['Write', 'Edit'] },
  ask_agent: { name: 'spawn_agent', aliases: ['Agent'] },
};

export function codexTool(agentName: string): CodexTool {
  return Object.hasOwn(TOOLS, agentName) ? TOOLS[agentName] : { name: agentName, aliases: [] };
}

type Args = Record<string, unknown>;

const lines = (text: string) => text.replace(/\n$/, '').split('\n');

/** A file edit as Codex's patch text (`*** Begin Patch … *** End Patch`), the file named as the model named it. */
function patchOf(agentName: string, args: Args): string {
  const file = typeof args.file_path === 'string' ? args.file_path : '';
  if (agentName === 'write_file') {
    const body = typeof args.content === 'string' ? lines(args.content).map((l) => `+${l}`) : [];
    return ['*** Begin Patch', `*** Add File: ${file}`, ...body, '*** End Patch'].join('\n');
  }
  const old = typeof args.old_string === 'string' ? lines(args.old_string).map((l) => `-${l}`) : [];
  const add = typeof args.new_string === 'string' ? lines(args.new_string).map((l) => `+${l}`) : [];
  return ['*** Begin Patch', `*** Update File: ${file}`, '@@', ...old, ...add, '*** End Patch'].join('\n');
}

/** An agent tool call's arguments as Codex's `tool_input`. */
export function codexToolInput(agentName: string, args: Args): Args {
  switch (codexTool(agentName).name) {
    case 'Bash':
      return { command: args.command };
    case 'apply_patch':
      return { command: patchOf(agentName, args) };
    case 'spawn_agent':
      // A hand-off is a subagent's start: its task is the message, a conversation sent along a fork of it.
      return { message: args.prompt, ...(args.withContext === true ? { fork_context: true } : {}) };
    default:
      return args;
  }
}

/**
 * An applied patch's `tool_response`, as Codex gives it: the exit code, the time (Codex applies a
 * patch itself and says 0 seconds, whatever its size) and the file, `A` for added, `M` for modified,
 * named from the working folder.
 */
export function codexPatchResponse(facts: { filePath: string; originalContent: string | null }, cwd: string): string {
  const rel = path.relative(cwd, facts.filePath);
  const file = rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : facts.filePath;
  return `Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\n${facts.originalContent === null ? 'A' : 'M'} ${file}\n`;
}

/** PermissionRequest's `tool_input`: a shell command's carries what the model said it needs more permissions for (the call's description). */
export function codexPermissionInput(agentName: string, args: Args): Args {
  const input = codexToolInput(agentName, args);
  return codexTool(agentName).name === 'Bash' && typeof args.description === 'string' ? { ...input, description: args.description } : input;
}

/** A hook's `updatedInput` back in the agent's arguments: a shell command's `command` replaces the call's. */
export function agentToolArgs(agentName: string, updated: Args, args: Args): Args | undefined {
  if (codexTool(agentName).name === 'Bash') return typeof updated.command === 'string' ? { ...args, command: updated.command } : undefined;
  // A patch is not taken back apart: other tools take the input as given.
  if (codexTool(agentName).name === 'apply_patch') return undefined;
  if (codexTool(agentName).name === 'spawn_agent')
    return typeof updated.message === 'string'
      ? { ...args, prompt: updated.message, ...(typeof updated.fork_context === 'boolean' ? { withContext: updated.fork_context } : {}) }
      : undefined;
  return updated;
}
