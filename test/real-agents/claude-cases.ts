// The Claude Code cases of the real-agent suite. Every text a hook prints carries "HK-" so the
// suite finds it wherever it lands (observe.ts).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bash, group, hook, type ClaudeCase, type HookSpec } from './claude.js';

const PACKS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'packs');

const ctx = (event: string, text: string) => ({ hookSpecificOutput: { hookEventName: event, additionalContext: text } });
const pre = (fields: Record<string, unknown>) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...fields } });
const done = { text: 'finished' };
// Claude Code puts its own words around the API's error; Hookline gives the API's alone.
const apiError = (i: Record<string, unknown>) => {
  const m = typeof i.last_assistant_message === 'string' ? /API Error: \d+ [^.]*/.exec(i.last_assistant_message) : null;
  return m ? { ...i, last_assistant_message: m[0] } : i;
};
// Claude Code suggests permission rules from its own rule engine; Hookline has none to suggest.
const noSuggestions = ({ permission_suggestions, ...i }: Record<string, unknown>) => i;

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
        replies: [{ sleepMs: 9000, out: pre({ permissionDecision: 'deny', permissionDecisionReason: 'HK-late' }) }],
        // 3 s, not 1: a loaded machine can take a second to start the hook's node before it records.
        handler: { timeout: 3 },
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

const write = (file: string, content: string) => ({ tools: [{ name: 'Write', input: { file_path: `{project}/${file}`, content } }] });
const read = (file: string) => ({ tools: [{ name: 'Read', input: { file_path: `{project}/${file}` } }] });

CLAUDE_CASES.push(
  {
    name: 'Write: tool_input and tool_response',
    turns: [write('notes.txt', 'one\ntwo\n'), done],
    hooks: { PreToolUse: group('Write', hook('pre')), PostToolUse: group('Write', hook('post')) },
  },
  {
    name: 'Read then Edit: tool_input and tool_response',
    files: { 'a.txt': 'alpha\nbeta\ngamma\n' },
    turns: [
      read('a.txt'),
      { tools: [{ name: 'Edit', input: { file_path: '{project}/a.txt', old_string: 'beta', new_string: 'BETA' } }] },
      done,
    ],
    hooks: { PreToolUse: group('Read|Edit', hook('pre')), PostToolUse: group('Read|Edit', hook('post')) },
  },
  {
    name: 'matchers: alternatives, star, empty, case, regex',
    turns: [bash(1), done],
    hooks: {
      PreToolUse: [
        { matcher: 'Bash|Write', hooks: [hook('alt')] },
        { matcher: '*', hooks: [hook('star')] },
        { matcher: '', hooks: [hook('empty')] },
        { matcher: 'bash', hooks: [hook('lower')] },
        { matcher: '^Ba.*', hooks: [hook('regex')] },
        { matcher: 'Bas', hooks: [hook('prefix')] },
      ],
    },
  },
  {
    name: 'user settings hooks',
    scope: 'user',
    turns: [bash(1), done],
    hooks: { PreToolUse: group('Bash', hook('pre', { out: ctx('PreToolUse', 'HK-user') })), SessionStart: group(undefined, hook('start')) },
  },
  {
    name: 'settings env reaches hooks',
    settings: { env: { HK_TEAM: 'platform' } },
    turns: [bash(1), done],
    hooks: { PreToolUse: group('Bash', { label: 'pre', command: '{hook} "$HK_TEAM"' }) },
  },
  {
    name: 'Stop additionalContext once',
    turns: [{ text: 'first answer' }, { text: 'second answer' }],
    hooks: { Stop: group(undefined, hook('stop', { out: ctx('Stop', 'HK-also-this') }, {})) },
  },
  {
    name: 'PostToolBatch context',
    turns: [
      {
        tools: [
          { name: 'Bash', input: { command: 'touch ran-1' } },
          { name: 'Bash', input: { command: 'echo two' } },
        ],
      },
      done,
    ],
    hooks: { PostToolBatch: group(undefined, hook('batch', { out: ctx('PostToolBatch', 'HK-batch') })) },
  },
  {
    name: 'systemMessage on prompt, start and stop',
    turns: [done],
    hooks: {
      SessionStart: group(undefined, hook('start', { out: { systemMessage: 'HK-start-msg' } })),
      UserPromptSubmit: group(undefined, hook('prompt', { out: { systemMessage: 'HK-prompt-msg' } })),
      Stop: group(undefined, hook('stop', { out: { systemMessage: 'HK-stop-msg' } })),
    },
  },
  {
    name: 'SessionStart exit 2',
    turns: [done],
    hooks: { SessionStart: group(undefined, hook('start', { err: 'HK-start-stderr', exit: 2 })) },
  },
  {
    name: 'Stop continue false',
    turns: [{ text: 'first answer' }],
    hooks: { Stop: group(undefined, hook('stop', { out: { continue: false, stopReason: 'HK-stop-now' } })) },
  },
  {
    name: 'deny beats another hook’s rewrite',
    turns: [bash(1), done],
    hooks: {
      PreToolUse: group(
        'Bash',
        hook('rewrite', { out: pre({ permissionDecision: 'allow', updatedInput: { command: 'touch ran-2' } }) }),
        hook('deny', { out: pre({ permissionDecision: 'deny', permissionDecisionReason: 'HK-no' }) }),
      ),
    },
  },
  {
    name: 'PermissionRequest allows Bash in default mode',
    normalize: noSuggestions,
    differs: { aspects: [], row: 'permission_suggestions' },
    mode: 'default',
    turns: [bash(1), done],
    hooks: {
      PermissionRequest: group(
        'Bash',
        hook('perm', { out: { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } } }),
      ),
      Notification: group(undefined, hook('note')),
    },
  },
  {
    name: 'PermissionRequest denies Bash in default mode',
    normalize: noSuggestions,
    differs: { aspects: [], row: 'permission_suggestions' },
    mode: 'default',
    turns: [bash(1), done],
    hooks: {
      PermissionRequest: group(
        'Bash',
        hook('perm', {
          out: { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'HK-perm-no' } } },
        }),
      ),
      PermissionDenied: group(undefined, hook('denied')),
    },
  },
  {
    name: 'default mode with no hook to answer',
    mode: 'default',
    turns: [bash(1), write('x.txt', 'x'), done],
    hooks: {
      PermissionDenied: group(undefined, hook('denied')),
      Notification: group(undefined, hook('note')),
      PreToolUse: group(undefined, hook('pre')),
    },
  },
  {
    name: 'CLAUDE.md loads: InstructionsLoaded, continue false ignored',
    files: { 'CLAUDE.md': '# rules\nbe brief\n' },
    turns: [done],
    hooks: { InstructionsLoaded: group(undefined, hook('loaded', { out: { continue: false, stopReason: 'HK-ignored' } })) },
  },
  {
    name: 'an http hook denies',
    turns: [bash(1), done],
    hooks: {
      PreToolUse: group('Bash', {
        label: 'web',
        handler: { type: 'http' },
        replies: [{ out: pre({ permissionDecision: 'deny', permissionDecisionReason: 'HK-web-no' }) }],
      }),
    },
  },
  {
    name: 'an http hook answers 500',
    turns: [bash(1), done],
    hooks: {
      PreToolUse: group('Bash', { label: 'web', handler: { type: 'http' }, replies: [{ status: 500, out: { error: 'HK-down' } }] }),
    },
  },
  {
    name: 'a prompt hook blocks',
    turns: [bash(1), done],
    side: '{"ok": false, "reason": "HK-judged"}',
    hooks: { PreToolUse: group('Bash', { label: 'judge', handler: { type: 'prompt', prompt: 'Is this safe? $ARGUMENTS' } }) },
  },
  {
    name: 'an async hook',
    // Claude Code starts it and does not wait: it may exit first.
    mayNotRun: ['bg'],
    turns: [bash(1), { text: 'first' }],
    hooks: {
      PostToolUse: group('Bash', {
        label: 'bg',
        handler: { async: true },
        replies: [{ out: ctx('PostToolUse', 'HK-async'), sleepMs: 200 }],
      }),
    },
  },
  {
    name: 'an asyncRewake hook under -p: an ordinary hook, its exit 2 blocks',
    // Claude Code backgrounds asyncRewake hooks only where a session waits for the user.
    turns: [bash(1), { text: 'first' }],
    hooks: {
      PostToolUse: group('Bash', {
        label: 'bg',
        handler: { asyncRewake: true, rewakeMessage: 'HK-prefix:', rewakeSummary: 'HK-summary' },
        replies: [{ err: 'HK-rewake-finding', exit: 2, sleepMs: 300 }],
      }),
    },
  },
  {
    name: 'a plugin hook with CLAUDE_PLUGIN_ROOT',
    turns: [bash(1), done],
    plugin: { name: 'guard', hooks: { PreToolUse: group('Bash', { label: 'plug', command: '{hook} "${CLAUDE_PLUGIN_ROOT}"' }) } },
    hooks: {},
  },
  {
    name: 'the model API refuses the key: StopFailure',
    env: { CLAUDE_CODE_MAX_RETRIES: '0' },
    mayNotRun: ['fail'],
    normalize: apiError,
    turns: [{ error: { status: 401, type: 'authentication_error', message: 'HK-bad-key' } }],
    hooks: { StopFailure: group(undefined, hook('fail')), Stop: group(undefined, hook('stop')) },
    differs: { aspects: ['user'], row: 'API errors' },
  },
  {
    name: 'the model API fails: StopFailure',
    // Claude Code starts StopFailure hooks and does not wait for them: in -p it often exits first.
    mayNotRun: ['fail'],
    // Claude Code follows the API's message with its own advice; Hookline does not repeat it.
    normalize: (i) =>
      typeof i.last_assistant_message === 'string' ? { ...i, last_assistant_message: i.last_assistant_message.split('. ')[0] } : i,
    differs: { aspects: ['user'], row: 'API errors' },
    env: { CLAUDE_CODE_MAX_RETRIES: '0' },
    turns: [{ error: { status: 500, type: 'api_error', message: 'HK-server-down' } }],
    hooks: { StopFailure: group(undefined, hook('fail')), Stop: group(undefined, hook('stop')) },
  },
  {
    name: '/compact: PreCompact and PostCompact',
    prompt: '/compact',
    turns: [{ text: 'summary of it all' }],
    hooks: {
      PreCompact: group(undefined, hook('pre')),
      PostCompact: group(undefined, hook('post')),
      SessionStart: group(undefined, hook('start')),
      UserPromptSubmit: group(undefined, hook('prompt')),
    },
  },
);

CLAUDE_CASES.push({
  name: '/compact after a conversation',
  // Claude Code asks the model for the summary and prices the cache write; Hookline summarises the history itself.
  normalize: ({ compact_summary, estimated_cache_write_usd, ...i }) =>
    compact_summary === undefined ? i : { ...i, compact_summary: '<summary>' },
  differs: { aspects: ['requests', 'model'], row: 'Compaction' },
  before: ['hello there', 'and again'],
  prompt: '/compact keep the names',
  turns: [{ text: 'first reply' }, { text: 'second reply' }, { text: 'HK-summary of the talk' }],
  hooks: {
    PreCompact: group(undefined, hook('pre')),
    PostCompact: group(undefined, hook('post')),
    SessionStart: group(undefined, hook('start', { out: ctx('SessionStart', 'HK-start') })),
    UserPromptSubmit: group(undefined, hook('prompt')),
  },
});

/** A published-style hook script, copied into the project's .claude/hooks/ and run as packs are: `python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/NAME`. */
const pack = (name: string) => ({
  file: { [`.claude/hooks/${name}`]: fs.readFileSync(path.join(PACKS, name), 'utf8') },
  command: `python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/${name}`,
});
const packHook = (label: string, name: string): HookSpec => ({ label, command: pack(name).command });

CLAUDE_CASES.push(
  {
    name: 'pack: a safety net blocks rm -rf, lets the next command run',
    files: pack('safety-net.py').file,
    turns: [{ tools: [{ name: 'Bash', input: { command: 'rm -rf build', description: 'clean' } }] }, bash(2), done],
    hooks: { PreToolUse: group('Bash', hook('seen'), packHook('net', 'safety-net.py')) },
  },
  {
    name: 'pack: a formatter after Write',
    files: pack('formatter.py').file,
    compareFiles: ['styled.txt'],
    turns: [write('styled.txt', 'one\ttwo\nthree\n'), done],
    hooks: { PostToolUse: group('Write|Edit', hook('seen'), packHook('fmt', 'formatter.py')) },
  },
  {
    name: 'pack: a tool logger on every tool',
    files: { ...pack('logger.py').file, 'notes.md': 'hello\n' },
    compareFiles: ['.tool-log.jsonl'],
    turns: [read('notes.md'), bash(1), write('out.txt', 'x\n'), done],
    hooks: { PreToolUse: group('*', packHook('log', 'logger.py')) },
  },
  {
    name: 'pack: an instruction audit adds a rule',
    prompt: 'please deploy the site',
    files: pack('audit.py').file,
    turns: [done],
    hooks: { UserPromptSubmit: group(undefined, hook('seen'), packHook('audit', 'audit.py')) },
  },
  {
    name: 'pack: an instruction audit blocks a secret',
    prompt: 'use key sk-abcdefghijklmnop to call it',
    files: pack('audit.py').file,
    turns: [done],
    hooks: { UserPromptSubmit: group(undefined, packHook('audit', 'audit.py')) },
  },
  {
    name: 'once, if and statusMessage',
    turns: [bash(1), { tools: [{ name: 'Bash', input: { command: 'git status; touch ran-2', description: 'status' } }] }, done],
    hooks: {
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ label: 'once', handler: { once: true } }] },
        { matcher: 'Bash', hooks: [{ label: 'git', handler: { if: 'Bash(git *)' } }] },
        { matcher: 'Bash', hooks: [{ label: 'status', handler: { statusMessage: 'HK-checking' } }] },
      ],
    },
  },
  {
    name: 'suppressOutput and a plain stdout on PreToolUse',
    turns: [bash(1), done],
    hooks: {
      PreToolUse: group(
        'Bash',
        hook('quiet', { out: { suppressOutput: true, systemMessage: 'HK-quiet-msg' } }),
        hook('plain', { out: 'HK-plain-text\n' }),
      ),
    },
  },
  {
    name: 'a prompt hook allows',
    turns: [bash(1), done],
    side: '{"ok": true}',
    hooks: { PreToolUse: group('Bash', { label: 'judge', handler: { type: 'prompt', prompt: 'Is this safe? $ARGUMENTS' } }) },
  },
);

CLAUDE_CASES.push(
  {
    name: 'a project turns all hooks off',
    scope: 'user',
    alsoSettings: [{ scope: 'project', settings: { disableAllHooks: true } }],
    turns: [bash(1), done],
    hooks: { PreToolUse: group('Bash', hook('mine')) },
    differs: { aspects: ['hooks', 'env', 'counts'], row: '`disableAllHooks`, `enabledPlugins` in a project' },
  },
  {
    name: 'a project permission rule in -p default mode',
    mode: 'default',
    settings: { permissions: { allow: ['Bash(touch:*)'] } },
    turns: [bash(1), done],
    hooks: { PreToolUse: group('Bash', hook('pre')) },
  },
);
