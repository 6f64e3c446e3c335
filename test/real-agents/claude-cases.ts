// The Claude Code cases of the real-agent suite. Every text a hook prints carries "HK-" so the
// suite finds it wherever it lands (observe.ts).
import { bash, group, hook, type ClaudeCase } from './claude.js';

const ctx = (event: string, text: string) => ({ hookSpecificOutput: { hookEventName: event, additionalContext: text } });
const pre = (fields: Record<string, unknown>) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...fields } });
const done = { text: 'finished' };

export const CLAUDE_CASES: ClaudeCase[] = [
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
    hooks: { PreToolUse: group('Bash', hook('pre', { err: 'HK-stderr', exit: 2 })) },
  },
  {
    name: 'PreToolUse exit 2 with JSON on stdout',
    turns: [bash(1), done],
    hooks: {
      PreToolUse: group(
        'Bash',
        hook('pre', { out: pre({ permissionDecision: 'deny', permissionDecisionReason: 'HK-json' }), err: 'HK-stderr', exit: 2 }),
      ),
    },
  },
  {
    name: 'PreToolUse legacy decision block',
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
      PreToolUse: group(
        'Bash',
        hook('pre', { out: pre({ permissionDecision: 'allow', updatedInput: { command: 'touch ran-2', description: 'rewritten' } }) }),
      ),
      PostToolUse: group('Bash', hook('post')),
    },
  },
  {
    name: 'ask with nobody to ask',
    turns: [bash(1), done],
    hooks: { PreToolUse: group('Bash', hook('pre', { out: pre({ permissionDecision: 'ask', permissionDecisionReason: 'HK-ask' }) })) },
  },
  {
    name: 'a Bash command that exits non-zero',
    turns: [{ tools: [{ name: 'Bash', input: { command: 'touch ran-1; echo out; exit 3', description: 'fails' } }] }, done],
    hooks: {
      PostToolUse: group('Bash', hook('post')),
      PostToolUseFailure: group('Bash', hook('failure', { out: ctx('PostToolUseFailure', 'HK-failure') })),
    },
  },
  {
    name: 'PostToolUse decision block',
    turns: [bash(1), done],
    hooks: { PostToolUse: group('Bash', hook('post', { out: { decision: 'block', reason: 'HK-block' } })) },
  },
  {
    name: 'PostToolUse exit 2',
    turns: [bash(1), done],
    hooks: { PostToolUse: group('Bash', hook('post', { err: 'HK-post-stderr', exit: 2 })) },
  },
  {
    name: 'UserPromptSubmit block',
    turns: [bash(1), done],
    hooks: { UserPromptSubmit: group(undefined, hook('prompt', { out: { decision: 'block', reason: 'HK-no' } })) },
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
    name: 'continue false on PreToolUse',
    turns: [bash(1), done],
    hooks: { PreToolUse: group('Bash', hook('pre', { out: { continue: false, stopReason: 'HK-stopped' } })) },
    differs: { aspects: ['ran'], row: 'continue: false on PreToolUse' },
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
        replies: [{ sleepMs: 5000, out: pre({ permissionDecision: 'deny', permissionDecisionReason: 'HK-late' }) }],
        handler: { timeout: 1 },
      }),
    },
  },
  {
    name: 'SessionEnd',
    turns: [done],
    hooks: { SessionEnd: group(undefined, hook('end')) },
  },
];
CLAUDE_CASES.push({
  name: 'several hooks give context on one event',
  turns: [bash(1), done],
  hooks: {
    SessionStart: group(
      undefined,
      hook('start1', { out: ctx('SessionStart', 'HK-s1') }),
      hook('start2', { out: 'HK-s2\n' }),
      hook('start3', { out: ctx('SessionStart', 'HK-s3') }),
    ),
    PreToolUse: group('Bash', hook('pre1', { out: ctx('PreToolUse', 'HK-p1') }), hook('pre2', { out: ctx('PreToolUse', 'HK-p2') })),
    PostToolUse: group(
      'Bash',
      hook('post1', { out: { decision: 'block', reason: 'HK-b1' } }),
      hook('post2', { out: { decision: 'block', reason: 'HK-b2', ...ctx('PostToolUse', 'HK-c2') } }),
    ),
  },
});
