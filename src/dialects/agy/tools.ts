/**
 * The agent's tools under Antigravity CLI's names and argument keys (agy keeps the PascalCase
 * argument names of its predecessor Cascade: `run_command {CommandLine, Cwd}` as observed in
 * live payloads, `view_file {AbsolutePath, StartLine, EndLine}`, …). A tool with no counterpart
 * keeps its own name and arguments. `aliases` are other names agy versions use for the same
 * tool: a hook's matcher is tested against each.
 */
interface ToolMap {
  agy: string;
  aliases?: string[];
  /** Agent argument → agy argument. */
  args: Record<string, string>;
}

const TOOLS: Record<string, ToolMap> = {
  run_shell_command: { agy: 'run_command', args: { command: 'CommandLine', dir_path: 'Cwd', description: 'Description' } },
  read_file: { agy: 'view_file', args: { file_path: 'AbsolutePath', start_line: 'StartLine', end_line: 'EndLine' } },
  replace: {
    agy: 'edit_file',
    aliases: ['replace_file_content'],
    args: {
      file_path: 'TargetFile',
      old_string: 'TargetContent',
      new_string: 'ReplacementContent',
      allow_multiple: 'AllowMultiple',
      instruction: 'Instruction',
    },
  },
  write_file: { agy: 'write_to_file', args: { file_path: 'TargetFile', content: 'CodeContent' } },
  glob: { agy: 'find_by_name', args: { pattern: 'Pattern', dir_path: 'SearchDirectory' } },
  list_directory: { agy: 'list_dir', args: { dir_path: 'DirectoryPath' } },
  search_file_content: {
    agy: 'grep_search',
    args: {
      pattern: 'Query',
      dir_path: 'SearchPath',
      include_pattern: 'Includes',
      case_sensitive: 'CaseSensitive',
      fixed_strings: 'IsRegex',
    },
  },
};

const BY_AGY = new Map<string, string>();
for (const [agent, t] of Object.entries(TOOLS)) for (const n of [t.agy, ...(t.aliases ?? [])]) BY_AGY.set(n, agent);

/** The names a hook matcher is tested against for an agent tool (agy's first). */
export function agyToolNames(agentTool: string): string[] {
  const t = TOOLS[agentTool];
  return t ? [t.agy, ...(t.aliases ?? [])] : [agentTool];
}

/** An agent tool call as agy's `toolCall`. */
export function toAgyToolCall(agentTool: string, args: Record<string, unknown>): { name: string; args: Record<string, unknown> } {
  const t = TOOLS[agentTool];
  if (!t) return { name: agentTool, args: { ...args } };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) {
    const key = t.args[k] ?? k;
    // grep_search's IsRegex is the opposite of fixed_strings.
    out[key] = agentTool === 'search_file_content' && k === 'fixed_strings' ? !v : v;
  }
  if (agentTool === 'search_file_content') {
    if (out.IsRegex === undefined) out.IsRegex = true;
    if (typeof out.Includes === 'string') out.Includes = [out.Includes];
  }
  return { name: t.agy, args: out };
}

/** An agy tool call as the agent's tool and arguments (keys with no counterpart kept as they are). */
export function fromAgyToolCall(name: string, args: Record<string, unknown>): { name: string; args: Record<string, unknown> } {
  const agent = BY_AGY.get(name);
  if (!agent) return { name, args: { ...args } };
  const back = new Map(Object.entries(TOOLS[agent].args).map(([a, b]) => [b, a]));
  const out: Record<string, unknown> = {};
  let from = args;
  // replace_file_content carries its edit as ReplacementChunks[{TargetContent, ReplacementContent, AllowMultiple}].
  const chunks = args.ReplacementChunks;
  if (Array.isArray(chunks) && chunks.length === 1 && typeof chunks[0] === 'object' && chunks[0] !== null) {
    const { ReplacementChunks: _chunks, ...rest } = args;
    from = { ...rest, ...(chunks[0] as Record<string, unknown>) };
  }
  for (const [k, v] of Object.entries(from)) {
    const key = back.get(k) ?? k;
    if (agent === 'search_file_content' && k === 'IsRegex') out.fixed_strings = !v;
    else if (agent === 'search_file_content' && k === 'Includes' && Array.isArray(v) && v.length === 1) out[key] = v[0];
    else out[key] = v;
  }
  if (agent === 'search_file_content' && out.fixed_strings === false) delete out.fixed_strings;
  return { name: agent, args: out };
}
