// The Codex cases of the real-agent suite. Every text a hook prints carries "HK-" so the suite
// finds it wherever it lands (observe.ts).
import { bash, group, hook, type CodexCase } from './codex.js';
import type { Turn } from './model-server.js';

const ctx = (event: string, text: string) => ({ hookSpecificOutput: { hookEventName: event, additionalContext: text } });
const pre = (fields: Record<string, unknown>) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...fields } });
const done = { text: 'finished' };
const shell = (cmd: string) => ({ tools: [{ name: 'exec_command', input: { cmd } }] });

/** A shell call that asks to run outside Codex's sandbox, so that its approval is asked for (PermissionRequest). */
const escalated = (n: number, why = 'HK-why'): Turn => ({
  tools: [{ name: 'exec_command', input: { cmd: `touch ran-${n}`, sandbox_permissions: 'require_escalated', justification: why } }],
});
const permission = (decision: Record<string, unknown>) => ({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } });
/** A script in the plugin: leaves `ran-plugin-<name>` in the working folder. */
const MARK_SCRIPT = { 'scripts/mark.sh': 'touch "ran-plugin-$1"\n' };

/** Codex's patch tool called with this patch, and the agent's own tool call that makes the same change. */
function patch(text: string, agent: { name: string; input: Record<string, unknown> }): { codex: Turn; hookline: Turn } {
  return { codex: { tools: [{ name: 'apply_patch', input: {}, freeform: text }] }, hookline: { tools: [agent] } };
}
const ADD = patch('*** Begin Patch\n*** Add File: a.txt\n+added line\n*** End Patch', {
  name: 'write_file',
  input: { file_path: 'a.txt', content: 'added line\n' },
});
const UPDATE = patch('*** Begin Patch\n*** Update File: b.txt\n@@\n-old line\n+new line\n*** End Patch', {
  name: 'replace',
  input: { file_path: 'b.txt', old_string: 'old line', new_string: 'new line' },
});

const SPAWN: Turn = { tools: [{ name: 'spawn_agent', namespace: 'multi_agent_v1', input: { message: 'count the files' } }] };
/** Codex's wait for the agent the spawn started (its id is in the spawn's result); the agent's hand-off waits by itself. */
const WAIT = (body: any): Turn => {
  const out = (body.input ?? []).find((i: any) => i.type === 'function_call_output' && String(i.output).includes('agent_id'));
  const id = out ? (JSON.parse(String(out.output)) as { agent_id: string }).agent_id : '';
  return { tools: [{ name: 'wait_agent', namespace: 'multi_agent_v1', input: { targets: [id], timeout_ms: 30000 } }] };
};

export const CODEX_CASES: CodexCase[] = [
  {
    name: 'context from every event that gives it',
    turns: [bash(1), done],
    hooks: {
      SessionStart: group(undefined, hook('start', { out: ctx('SessionStart', 'HK-start') })),
      UserPromptSubmit: group(undefined, hook('prompt', { out: ctx('UserPromptSubmit', 'HK-prompt') })),
      PreToolUse: group('Bash', hook('pre', { out: ctx('PreToolUse', 'HK-pre') })),
      PostToolUse: group('Bash', hook('post', { out: ctx('PostToolUse', 'HK-post') })),
    },
  },
  {
    name: 'plain stdout from SessionStart and UserPromptSubmit',
    turns: [done],
    hooks: {
      SessionStart: group(undefined, hook('start', { out: 'HK-start-text\n' })),
      UserPromptSubmit: group(undefined, hook('prompt', { out: 'HK-prompt-text\n' })),
    },
  },
  {
    name: 'PreToolUse deny',
    turns: [bash(1), done],
    hooks: { PreToolUse: group('Bash', hook('pre', { out: pre({ permissionDecision: 'deny', permissionDecisionReason: 'HK-deny' }) })) },
  },
  {
    name: 'PreToolUse exit 2 with stderr',
    turns: [bash(1), done],
    hooks: { PreToolUse: group('Bash', hook('pre', { err: 'HK-stderr\n', exit: 2 })) },
  },
  {
    name: 'PreToolUse decision block',
    turns: [bash(1), done],
    hooks: { PreToolUse: group('Bash', hook('pre', { out: { decision: 'block', reason: 'HK-legacy' } })) },
  },
  {
    name: 'PreToolUse allow with a reason and a systemMessage',
    turns: [bash(1), done],
    hooks: {
      PreToolUse: group(
        'Bash',
        hook('pre', { out: { systemMessage: 'HK-msg', ...pre({ permissionDecision: 'allow', permissionDecisionReason: 'HK-why' }) } }),
      ),
    },
  },
  {
    name: 'PreToolUse updatedInput',
    turns: [bash(1), done],
    hooks: {
      PreToolUse: group('Bash', hook('pre', { out: pre({ permissionDecision: 'allow', updatedInput: { command: 'touch ran-2' } }) })),
      PostToolUse: group('Bash', hook('post')),
    },
  },
  {
    name: 'a shell command that exits non-zero',
    turns: [shell('touch ran-1; echo out; exit 3'), done],
    hooks: { PostToolUse: group('Bash', hook('post')) },
  },
  {
    name: 'PostToolUse decision block replaces the output',
    turns: [shell('touch ran-1; echo visible-output'), done],
    hooks: { PostToolUse: group('Bash', hook('post', { out: { decision: 'block', reason: 'HK-block' } })) },
  },
  {
    name: 'PostToolUse exit 2',
    turns: [bash(1), done],
    hooks: { PostToolUse: group('Bash', hook('post', { err: 'HK-post-stderr\n', exit: 2 })) },
  },
  {
    name: 'several hooks give context on one event',
    turns: [bash(1), done],
    hooks: {
      SessionStart: group(
        undefined,
        hook('start1', { out: ctx('SessionStart', 'HK-s1') }),
        hook('start2', { out: 'HK-s2\n' }),
        hook('start3', { out: ctx('SessionStart', 'HK-s3') }),
      ),
      UserPromptSubmit: group(
        undefined,
        hook('p1', { out: ctx('UserPromptSubmit', 'HK-u1') }),
        hook('p2', { out: ctx('UserPromptSubmit', 'HK-u2') }),
      ),
      PreToolUse: group('Bash', hook('pre1', { out: ctx('PreToolUse', 'HK-p1') }), hook('pre2', { out: ctx('PreToolUse', 'HK-p2') })),
      PostToolUse: group('Bash', hook('post1', { out: ctx('PostToolUse', 'HK-c1') }), hook('post2', { out: ctx('PostToolUse', 'HK-c2') })),
    },
  },
  {
    name: 'several PostToolUse hooks block',
    turns: [bash(1), done],
    hooks: {
      PostToolUse: group('Bash', hook('post1', { out: { decision: 'block', reason: 'HK-b1' } }), hook('post2', { err: 'HK-b2', exit: 2 })),
    },
  },
  {
    name: 'a PostToolUse block beside a context',
    turns: [bash(1), done],
    hooks: { PostToolUse: group('Bash', hook('post', { out: { decision: 'block', reason: 'HK-b1', ...ctx('PostToolUse', 'HK-c1') } })) },
    differs: { aspects: ['model'], row: 'Hook context beside a tool’s output' },
  },
  {
    name: 'UserPromptSubmit block',
    turns: [bash(1), done],
    hooks: {
      UserPromptSubmit: group(undefined, hook('prompt', { out: { decision: 'block', reason: 'HK-no' } })),
      Stop: group(undefined, hook('stop')),
    },
  },
  {
    name: 'UserPromptSubmit exit 2',
    turns: [bash(1), done],
    hooks: { UserPromptSubmit: group(undefined, hook('prompt', { err: 'HK-no-stderr', exit: 2 })) },
  },
  {
    name: 'Stop blocks once',
    turns: [{ text: 'first answer' }, { text: 'second answer' }],
    hooks: { Stop: group(undefined, hook('stop', { out: { decision: 'block', reason: 'HK-keep-going' } }, {})) },
  },
  {
    name: 'Stop exit 2 once',
    turns: [{ text: 'first answer' }, { text: 'second answer' }],
    hooks: { Stop: group(undefined, hook('stop', { err: 'HK-stop-stderr', exit: 2 }, {})) },
  },
  {
    name: 'Stop continue false',
    turns: [{ text: 'first answer' }],
    hooks: { Stop: group(undefined, hook('stop', { out: { continue: false, stopReason: 'HK-stop-now' } })) },
  },
  {
    name: 'continue false on PreToolUse',
    turns: [bash(1), bash(2), done],
    hooks: { PreToolUse: group('Bash', hook('pre', { out: { continue: false, stopReason: 'HK-stopped' } })) },
    differs: { aspects: ['ran', 'hooks', 'counts', 'requests'], row: 'continue: false on PreToolUse' },
  },
  {
    name: 'continue false on PostToolUse',
    turns: [bash(1), bash(2), done],
    hooks: { PostToolUse: group('Bash', hook('post', { out: { continue: false, stopReason: 'HK-stopped' } })) },
  },
  {
    name: 'continue false on UserPromptSubmit',
    turns: [bash(1), done],
    hooks: { UserPromptSubmit: group(undefined, hook('prompt', { out: { continue: false, stopReason: 'HK-stopped' } })) },
  },
  {
    name: 'continue false on SessionStart',
    turns: [bash(1), done],
    hooks: {
      SessionStart: group(undefined, hook('start', { out: { continue: false, stopReason: 'HK-stopped' } })),
      UserPromptSubmit: group(undefined, hook('prompt')),
    },
  },
  {
    name: 'a hook that fails (exit 1)',
    turns: [bash(1), done],
    hooks: { PreToolUse: group('Bash', hook('pre', { err: 'HK-oops', exit: 1 })) },
  },
  {
    name: 'invalid JSON output',
    turns: [bash(1), done],
    hooks: { PreToolUse: group('Bash', hook('pre', { out: '{"decision": "block", reason: HK-bad' })) },
  },
  {
    name: 'a hook past its timeout',
    turns: [bash(1), done],
    hooks: {
      PreToolUse: group('Bash', {
        label: 'pre',
        replies: [{ sleepMs: 9000, out: pre({ permissionDecision: 'deny', permissionDecisionReason: 'HK-late' }) }],
        // 3 s, not 1: a loaded machine can take a second to start the hook's node before it records.
        handler: { timeout: 3 },
      }),
    },
  },
  {
    name: 'matchers: alternatives, star, empty, case, regex, prefix',
    turns: [bash(1), done],
    hooks: {
      PreToolUse: [
        { matcher: 'Bash|Write', hooks: [hook('alt')] },
        { matcher: '*', hooks: [hook('star')] },
        { matcher: '', hooks: [hook('empty')] },
        { matcher: 'bash', hooks: [hook('lower')] },
        { matcher: '^Ba.*', hooks: [hook('regex')] },
        { matcher: 'Ba.h', hooks: [hook('dot')] },
        { matcher: 'Bas', hooks: [hook('prefix')] },
        { matcher: 'exec_command', hooks: [hook('native')] },
        { hooks: [hook('none')] },
      ],
    },
  },
  {
    name: 'SessionEnd',
    // Codex may exit before its SessionEnd hook has run.
    mayNotRun: ['end'],
    turns: [done],
    hooks: { SessionEnd: group(undefined, hook('end')), Stop: group(undefined, hook('stop')) },
  },
  {
    name: 'PreModelRequest on every model call',
    turns: [bash(1), done],
    hooks: { PreModelRequest: group(undefined, hook('model')) },
  },
  {
    name: 'hooks in config.toml',
    scope: 'toml',
    turns: [bash(1), done],
    hooks: { PreToolUse: group('Bash', hook('pre', { out: ctx('PreToolUse', 'HK-toml') })), Stop: group(undefined, hook('stop')) },
  },
  {
    name: 'timeout and statusMessage are in the trust hash',
    turns: [bash(1), done],
    hooks: { PreToolUse: group('Bash', { label: 'pre', handler: { timeout: 5, statusMessage: 'HK-checking' } }) },
  },
  {
    // Hookline's fail-closed switch: Codex ignores the field, keeps it out of the hash and loads the file.
    name: 'onFailure is not in the trust hash, and Codex loads the file',
    turns: [bash(1), done],
    hooks: { PreToolUse: group('Bash', { ...hook('pre', { out: ctx('PreToolUse', 'HK-pre') }), handler: { onFailure: 'block' } }) },
  },
  {
    // In the hash; at this size Codex passes the context whole (the limit is not in characters), and so does Hookline.
    name: 'additionalContextLimit is in the trust hash',
    turns: [bash(1), done],
    hooks: {
      PreToolUse: group('Bash', {
        ...hook('pre', { out: ctx('PreToolUse', 'HK-pre-0123456789abcdefghijklmnopqrstuvwxyz') }),
        handler: { additionalContextLimit: 12 },
      }),
    },
  },
  {
    // Codex runs commandWindows on Windows only, and keeps it out of the hash.
    name: 'commandWindows: not in the trust hash, the command runs',
    turns: [bash(1), done],
    hooks: { PreToolUse: group('Bash', { ...hook('pre', { out: ctx('PreToolUse', 'HK-pre') }), handler: { commandWindows: 'echo win' } }) },
  },
  {
    // Codex skips prompt, agent and MCP tool handlers and runs the rest of the group, keeping each one's place in the trust key.
    name: 'prompt, agent and mcp_tool handlers are skipped, the command beside them runs',
    turns: [bash(1), done],
    hooks: {
      PreToolUse: group(
        'Bash',
        { label: 'p', handler: { type: 'prompt', prompt: 'HK-judge' } },
        { label: 'a', handler: { type: 'agent', prompt: 'HK-judge' } },
        { label: 'm', handler: { type: 'mcp_tool', server: 'srv', tool: 'check' } },
        hook('pre', { out: ctx('PreToolUse', 'HK-pre') }),
      ),
    },
  },
  {
    // Codex starts an async hook and goes on: its answer decides nothing.
    name: 'an async PreToolUse hook: its deny does not stop the tool',
    anyOrder: true,
    turns: [bash(1), done],
    hooks: {
      PreToolUse: group('Bash', {
        ...hook('pre', { out: pre({ permissionDecision: 'deny', permissionDecisionReason: 'HK-deny' }) }),
        handler: { async: true },
      }),
      PostToolUse: group('Bash', hook('post')),
    },
  },
  {
    name: 'trust: a hook without a record does not run',
    trust: 'none',
    noneRun: true,
    held: true,
    differs: { aspects: [], row: 'Held-back hooks' },
    turns: [bash(1), done],
    hooks: {
      PreToolUse: group('Bash', hook('pre', { out: { decision: 'block', reason: 'HK-no' } })),
      SessionStart: group(undefined, hook('start')),
    },
  },
  {
    name: 'trust: a hook changed since its record does not run',
    trust: 'changed',
    noneRun: true,
    held: true,
    differs: { aspects: [], row: 'Held-back hooks' },
    turns: [bash(1), done],
    hooks: { PreToolUse: group('Bash', hook('pre', { out: { decision: 'block', reason: 'HK-no' } })) },
  },
  {
    name: 'trust: a hook turned off with enabled = false',
    trust: 'disabled',
    noneRun: true,
    turns: [bash(1), done],
    hooks: { PreToolUse: group('Bash', hook('pre', { out: { decision: 'block', reason: 'HK-no' } })) },
  },
  {
    name: 'project hooks in a trusted project',
    scope: 'project',
    turns: [bash(1), done],
    hooks: { PreToolUse: group('Bash', hook('pre', { out: ctx('PreToolUse', 'HK-project') })) },
  },
  {
    name: 'project hooks in a project Codex does not trust',
    scope: 'project',
    projectTrusted: false,
    noneRun: true,
    held: true,
    differs: { aspects: [], row: 'Held-back hooks' },
    turns: [bash(1), done],
    hooks: { PreToolUse: group('Bash', hook('pre', { out: { decision: 'block', reason: 'HK-no' } })) },
  },
  {
    name: 'project hooks Codex trusts and Hookline has not reviewed',
    scope: 'project',
    hooklineTrust: false,
    turns: [bash(1), done],
    hooks: { PreToolUse: group('Bash', hook('pre')) },
    differs: { aspects: ['hooks', 'env', 'counts'], row: 'Project hooks' },
  },
  {
    name: 'PreToolUse ask',
    turns: [bash(1), done],
    hooks: { PreToolUse: group('Bash', hook('pre', { out: pre({ permissionDecision: 'ask', permissionDecisionReason: 'HK-ask' }) })) },
    differs: { aspects: ['ran', 'model'], row: 'permissionDecision: ask' },
  },
  {
    name: 'a secret in the environment',
    env: { OPENAI_API_KEY: 'sk-test-secret' },
    turns: [done],
    hooks: { UserPromptSubmit: group(undefined, { label: 'prompt', command: `{hook}; echo "HK-key=$OPENAI_API_KEY"` }) },
    differs: { aspects: ['model'], row: 'Environment' },
  },
  {
    name: 'Stop blocks nine times in a row',
    turns: [{ text: 'answer' }],
    hooks: { Stop: group(undefined, hook('stop', ...Array(9).fill({ out: { decision: 'block', reason: 'HK-again' } }), {})) },
    differs: { aspects: ['hooks', 'counts', 'requests', 'model'], row: 'Stop blocks in a row' },
  },
  {
    name: 'the model API refuses the key: no StopFailure',
    noneRun: true,
    turns: [{ error: { status: 401, type: 'authentication_error', message: 'HK-bad-key' } }],
    hooks: { StopFailure: group(undefined, hook('fail')), Stop: group(undefined, hook('stop')) },
    differs: { aspects: ['user'], row: 'API errors' },
  },
  {
    name: 'plugin hooks: ${PLUGIN_ROOT} in the command, the plugin’s folders in the environment',
    turns: [bash(1), done],
    hooks: { SessionStart: group(undefined, hook('user-start', { out: ctx('SessionStart', 'HK-user-start') })) },
    plugin: {
      hooks: {
        SessionStart: group(undefined, hook('plugin-start', { out: ctx('SessionStart', 'HK-plugin-start') })),
        PreToolUse: group('Bash', { label: 'plugin-pre', command: 'bash ${PLUGIN_ROOT}/scripts/mark.sh pre && {hook}' }),
        PostToolUse: group('Bash', {
          label: 'plugin-post',
          command: 'bash "${CLAUDE_PLUGIN_ROOT}/scripts/mark.sh" post && {hook}',
          replies: [{ out: ctx('PostToolUse', 'HK-plugin-post') }],
        }),
      },
      files: MARK_SCRIPT,
    },
  },
  {
    name: 'a plugin hook denies a tool',
    turns: [bash(1), done],
    hooks: {},
    plugin: {
      hooks: {
        PreToolUse: group(
          'Bash',
          hook('plugin-pre', { out: pre({ permissionDecision: 'deny', permissionDecisionReason: 'HK-plugin-deny' }) }),
        ),
      },
    },
  },
  {
    // Codex numbers a file's hooks event by event in its own order (PreToolUse before Stop, whatever the
    // file's order), the user's before the plugins': the numbers name each block.
    name: 'Stop blocks from the user’s file and a plugin, named by Codex’s numbers and their files',
    turns: [{ text: 'first answer' }, { text: 'second answer' }],
    hooks: {
      Stop: group(undefined, hook('user-stop', { out: { decision: 'block', reason: 'HK-user-stop' } }, {})),
      PreToolUse: group('Bash', hook('user-pre')),
    },
    plugin: { hooks: { Stop: group(undefined, hook('plugin-stop', { out: { decision: 'block', reason: 'HK-plugin-stop' } }, {})) } },
  },
  {
    name: 'trust: a plugin changed since it was reviewed is held back',
    noneRun: true,
    held: true,
    differs: { aspects: [], row: 'Held-back hooks' },
    turns: [bash(1), done],
    hooks: {},
    plugin: {
      hooks: { PreToolUse: group('Bash', hook('plugin-pre', { out: { decision: 'block', reason: 'HK-no' } })) },
      trust: 'changed-content',
    },
  },
  {
    // Codex's record of a plugin's hook may lack the plugin's contents: the hook's hash alone then vouches for it.
    name: 'trust: a plugin hook recorded by its hash alone runs',
    turns: [bash(1), done],
    hooks: {},
    plugin: { hooks: { PreToolUse: group('Bash', hook('plugin-pre', { out: ctx('PreToolUse', 'HK-plugin-pre') })) }, trust: 'hash-only' },
  },
  {
    name: 'trust: a plugin hook without a record does not run',
    noneRun: true,
    held: true,
    differs: { aspects: [], row: 'Held-back hooks' },
    turns: [bash(1), done],
    hooks: {},
    plugin: { hooks: { PreToolUse: group('Bash', hook('plugin-pre', { out: { decision: 'block', reason: 'HK-no' } })) }, trust: 'none' },
  },
  {
    // `codex exec --approve-for-me`: a command that asks for more permissions is put to its PermissionRequest hooks first.
    name: 'PermissionRequest allows a command that asks for more permissions',
    approval: 'review',
    turns: [escalated(1), done],
    hooks: {
      PermissionRequest: group('Bash', hook('perm', { out: permission({ behavior: 'allow' }) })),
      PreToolUse: group('Bash', hook('pre')),
      PostToolUse: group('Bash', hook('post')),
    },
  },
  {
    name: 'PermissionRequest denies a command that asks for more permissions',
    approval: 'review',
    turns: [escalated(1), done],
    hooks: {
      PermissionRequest: group('Bash', hook('perm', { out: permission({ behavior: 'deny', message: 'HK-perm-deny' }) })),
      PostToolUse: group('Bash', hook('post')),
    },
  },
  {
    // Codex compacts in the middle of the turn once the model's reported use passes `model_auto_compact_token_limit`
    // (PreCompact and PostCompact get only the trigger); the agent compresses at a prompt, and this history is too short for it.
    name: 'PreCompact and PostCompact around an automatic compaction',
    toml: 'model_auto_compact_token_limit = 1',
    hooklineArgs: ['--compress-threshold', '1'],
    differs: { aspects: ['hooks', 'env', 'counts'], row: 'Compaction' },
    turns: [bash(1), done],
    hooks: {
      PreCompact: group(undefined, hook('pre-compact')),
      PostCompact: group(undefined, hook('post-compact')),
      PreToolUse: group('Bash', hook('pre')),
    },
  },
  {
    // Codex's patch tool, offered by its metadata for the model: matched as Write and Edit too, the patch as `tool_input.command`.
    name: 'apply_patch adds a file: PreToolUse and PostToolUse matched as Write, Edit and apply_patch',
    catalog: 'apply_patch',
    turns: [ADD.codex, done],
    hooklineTurns: [ADD.hookline, done],
    compareFiles: ['a.txt'],
    hooks: {
      PreToolUse: [
        { matcher: 'Write', hooks: [hook('pre-write')] },
        { matcher: 'apply_patch', hooks: [hook('pre-native')] },
        { matcher: 'Bash', hooks: [hook('pre-bash')] },
      ],
      PostToolUse: group('Edit', hook('post-edit', { out: ctx('PostToolUse', 'HK-post-patch') })),
    },
  },
  {
    name: 'apply_patch updates a file',
    catalog: 'apply_patch',
    files: { 'b.txt': 'old line\n' },
    turns: [UPDATE.codex, done],
    hooklineTurns: [UPDATE.hookline, done],
    compareFiles: ['b.txt'],
    hooks: { PreToolUse: group('Edit', hook('pre-edit')), PostToolUse: group('Write', hook('post-write')) },
  },
  {
    name: 'a PreToolUse deny stops a patch',
    catalog: 'apply_patch',
    turns: [ADD.codex, done],
    hooklineTurns: [ADD.hookline, done],
    compareFiles: ['a.txt'],
    hooks: {
      PreToolUse: group('Write', hook('pre', { out: pre({ permissionDecision: 'deny', permissionDecisionReason: 'HK-no-patch' }) })),
      PostToolUse: group('Write', hook('post')),
    },
  },
  {
    // `codex exec` starts a subagent with multi_agent_v1's spawn_agent; Hookline's agent hands off to an agent of the same name.
    name: 'SubagentStart and SubagentStop around a subagent',
    turns: [SPAWN, WAIT, done],
    hooklineTurns: [SPAWN, done],
    subagent: { task: 'count the files', turns: [{ text: 'there are none' }] },
    differs: { aspects: ['requests'], row: 'Subagents' },
    hooks: {
      SubagentStart: group(undefined, hook('sub-start')),
      SubagentStop: group(undefined, hook('sub-stop')),
      PreToolUse: group('spawn_agent', hook('pre-spawn')),
    },
  },
];
