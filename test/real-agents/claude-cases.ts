// The Claude Code cases of the real-agent suite. Every text a hook prints carries "HK-" so the
// suite finds it wherever it lands (observe.ts).
import { bash, group, hook, type ClaudeCase } from './claude.js';

const ctx = (event: string, text: string) => ({ hookSpecificOutput: { hookEventName: event, additionalContext: text } });

export const CLAUDE_CASES: ClaudeCase[] = [
  {
    name: 'context from every event that gives it',
    turns: [bash(1), { text: 'finished' }],
    hooks: {
      SessionStart: group(undefined, hook('start', { out: ctx('SessionStart', 'HK-start') })),
      UserPromptSubmit: group(undefined, hook('prompt', { out: ctx('UserPromptSubmit', 'HK-prompt') })),
      PreToolUse: group('Bash', hook('pre', { out: ctx('PreToolUse', 'HK-pre') })),
      PostToolUse: group('Bash', hook('post', { out: ctx('PostToolUse', 'HK-post') })),
    },
  },
  {
    name: 'PreToolUse exit 2 with JSON on stdout',
    turns: [bash(1), { text: 'finished' }],
    hooks: {
      PreToolUse: group(
        'Bash',
        hook('pre', {
          out: {
            hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'HK-json-reason' },
          },
          err: 'HK-stderr-reason',
          exit: 2,
        }),
      ),
    },
  },
  {
    name: 'a Bash command that exits non-zero',
    turns: [{ tools: [{ name: 'Bash', input: { command: 'touch ran-1; echo out; exit 3', description: 'fails' } }] }, { text: 'finished' }],
    hooks: {
      PostToolUse: group('Bash', hook('post')),
      PostToolUseFailure: group('Bash', hook('failure', { out: ctx('PostToolUseFailure', 'HK-failure') })),
    },
  },
  {
    name: 'ask with nobody to ask',
    turns: [bash(1), { text: 'finished' }],
    hooks: {
      PreToolUse: group(
        'Bash',
        hook('pre', {
          out: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'HK-ask' } },
        }),
      ),
    },
  },
];
