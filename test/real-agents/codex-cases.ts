// The Codex cases of the real-agent suite. Every text a hook prints carries "HK-" so the suite
// finds it wherever it lands (observe.ts).
import { bash, group, hook, type CodexCase } from './codex.js';

const ctx = (event: string, text: string) => ({ hookSpecificOutput: { hookEventName: event, additionalContext: text } });
const pre = (fields: Record<string, unknown>) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...fields } });
const done = { text: 'finished' };
const shell = (cmd: string) => ({ tools: [{ name: 'exec_command', input: { cmd } }] });

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
        replies: [{ sleepMs: 4000, out: pre({ permissionDecision: 'deny', permissionDecisionReason: 'HK-late' }) }],
        handler: { timeout: 1 },
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
];
