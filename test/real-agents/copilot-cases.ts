// The Copilot CLI cases of the real-agent suite. Every text a hook prints carries "HK-" so the
// suite finds it wherever it lands (observe.ts).
import { group, hook } from './claude.js';
import { bash, entry, type CopilotCase } from './copilot.js';

const done = { text: 'finished' };
// errorOccurred's error comes from each agent's own model client: Copilot's carries the response
// body and a native stack, and calls a refused request recoverable. Its name and context compare.
const apiError = (i: Record<string, any>) =>
  i.error && typeof i.error === 'object'
    ? { ...i, error: { name: i.error.name, hasMessage: String(i.error.message).includes('HK-bad-request') }, recoverable: '<recoverable>' }
    : i;

export const COPILOT_CASES: CopilotCase[] = [
  {
    name: 'context from every event that gives it',
    turns: [bash(1), done],
    hooks: {
      sessionStart: [entry('start', { out: { additionalContext: 'HK-start' } })],
      userPromptSubmitted: [entry('prompt', { out: { additionalContext: 'HK-prompt' } })],
      preToolUse: [entry('pre', { out: { additionalContext: 'HK-pre' } })],
      postToolUse: [entry('post', { out: { additionalContext: 'HK-post' } })],
    },
  },
  {
    name: 'Claude format: context from every event that gives it',
    file: '.claude/settings.json',
    turns: [bash(1), done],
    hooks: {
      SessionStart: group(
        undefined,
        hook('start', { out: { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'HK-start' } } }),
      ),
      UserPromptSubmit: group(
        undefined,
        hook('prompt', { out: { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'HK-prompt' } } }),
      ),
      PreToolUse: group('Bash', hook('pre', { out: { hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'HK-pre' } } })),
      PostToolUse: group(
        'Bash',
        hook('post', { out: { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'HK-post' } } }),
      ),
    },
  },
  {
    name: 'preToolUse deny',
    turns: [bash(1), done],
    hooks: { preToolUse: [entry('pre', { out: { permissionDecision: 'deny', permissionDecisionReason: 'HK-deny' } })] },
  },
  {
    name: 'agentStop blocks once',
    turns: [{ text: 'first answer' }, { text: 'second answer' }],
    hooks: { agentStop: [entry('stop', { out: { decision: 'block', reason: 'HK-keep-going' } }, {})] },
  },
];

const pre = (fields: Record<string, unknown>) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...fields } });
COPILOT_CASES.push(
  {
    name: 'Claude format: top-level additionalContext is read too',
    file: '.claude/settings.json',
    turns: [bash(1), done],
    hooks: {
      SessionStart: group(undefined, hook('start', { out: { additionalContext: 'HK-start' } })),
      UserPromptSubmit: group(undefined, hook('prompt', { out: { additionalContext: 'HK-prompt' } })),
      PreToolUse: group('Bash', hook('pre', { out: { additionalContext: 'HK-pre' } })),
      PostToolUse: group('Bash', hook('post', { out: { additionalContext: 'HK-post' } })),
    },
  },
  {
    name: 'PascalCase events in .github/hooks read hookSpecificOutput',
    turns: [bash(1), done],
    hooks: {
      PreToolUse: group('Bash', hook('pre', { out: pre({ permissionDecision: 'deny', permissionDecisionReason: 'HK-pascal-deny' }) })),
    },
  },
  {
    name: 'camelCase events ignore hookSpecificOutput',
    turns: [bash(1), done],
    hooks: { preToolUse: [entry('pre', { out: pre({ permissionDecision: 'deny', permissionDecisionReason: 'HK-camel-hso' }) })] },
  },
  {
    name: 'Claude format: a hookSpecificOutput deny',
    file: '.claude/settings.json',
    turns: [bash(1), done],
    hooks: {
      PreToolUse: group('Bash', hook('pre', { out: pre({ permissionDecision: 'deny', permissionDecisionReason: 'HK-claude-hso' }) })),
    },
  },
  {
    name: 'preToolUse exit 2 denies with a fixed text',
    turns: [bash(1), done],
    hooks: { preToolUse: [entry('pre', { err: 'HK-stderr', out: 'HK-stdout', exit: 2 })] },
  },
  {
    name: 'preToolUse crash denies (fail closed)',
    turns: [bash(1), done],
    hooks: { preToolUse: [entry('pre', { err: 'HK-oops', exit: 1 })] },
  },
  {
    name: 'preToolUse timeout lets the tool run',
    turns: [bash(1), done],
    hooks: {
      preToolUse: [
        {
          label: 'pre',
          replies: [{ sleepMs: 9000, out: { permissionDecision: 'deny', permissionDecisionReason: 'HK-late' } }],
          // 3 s, not 1: a loaded machine can take a second to start the hook's node before it records.
          handler: { timeoutSec: 3 },
        },
      ],
    },
  },
  {
    name: 'preToolUse modifiedArgs rewrites the call',
    turns: [bash(1), done],
    hooks: {
      preToolUse: [entry('pre', { out: { modifiedArgs: { command: 'touch ran-2', description: 'rewritten' } } })],
      postToolUse: [entry('post')],
    },
  },
  {
    name: 'Claude format: updatedInput rewrites the call',
    file: '.claude/settings.json',
    turns: [bash(1), done],
    hooks: {
      PreToolUse: group('Bash', hook('pre', { out: pre({ permissionDecision: 'allow', updatedInput: { command: 'touch ran-2' } }) })),
      PostToolUse: group('Bash', hook('post')),
    },
  },
  {
    name: 'preToolUse decision block and continue false are ignored',
    turns: [bash(1), bash(2), done],
    hooks: {
      preToolUse: [entry('pre', { out: { decision: 'block', reason: 'HK-block' } }, { out: { continue: false, stopReason: 'HK-stop' } })],
    },
  },
  {
    name: 'several hooks run in order; a later deny beats an earlier allow',
    turns: [bash(1), done],
    hooks: {
      preToolUse: [
        entry('a', { out: { permissionDecision: 'allow', additionalContext: 'HK-a' }, sleepMs: 500 }),
        entry('b', { out: { permissionDecision: 'deny', permissionDecisionReason: 'HK-b' } }),
        entry('c', { out: { additionalContext: 'HK-c' } }),
      ],
      sessionStart: [
        entry('s1', { out: { additionalContext: 'HK-s1' }, sleepMs: 300 }),
        entry('s2', { out: { additionalContext: 'HK-s2' } }),
      ],
    },
    also: [
      {
        file: '.github/hooks/other.json',
        hooks: { preToolUse: [entry('d')], sessionStart: [entry('s3', { out: { additionalContext: 'HK-s3' } })] },
      },
    ],
  },
  {
    name: 'agentStop exit 2 shows its stderr',
    turns: [{ text: 'first answer' }, { text: 'second answer' }],
    hooks: { agentStop: [entry('stop', { err: 'HK-stop-stderr', exit: 2 }, {})] },
  },
);

const start = (label: string) => ({ sessionStart: [entry(label)] });
COPILOT_CASES.push(
  {
    name: 'every file, in Copilot order',
    turns: [done],
    file: '.github/hooks/b.json',
    hooks: start('b'),
    also: [
      { file: '.github/hooks/a.json', hooks: start('a') },
      { file: '.github/hooks/z.json', hooks: start('z') },
      { file: '.github/hooks/m.json', hooks: start('m') },
      { file: '~/.copilot/hooks/u.json', hooks: start('user') },
      { file: '.claude/settings.json', hooks: { SessionStart: group(undefined, hook('claude-project')) } },
      { file: '.claude/settings.local.json', hooks: { SessionStart: group(undefined, hook('claude-local')) } },
      { file: '.github/copilot/settings.json', hooks: start('copilot-settings') },
    ],
  },
  {
    name: 'modifiedArgs with only some arguments',
    turns: [bash(1), done],
    hooks: { preToolUse: [entry('pre', { out: { modifiedArgs: { command: 'touch ran-2' } } })], postToolUse: [entry('post')] },
  },
  {
    name: 'permissionRequest deny',
    turns: [bash(1), done],
    hooks: {
      permissionRequest: [entry('perm', { out: { behavior: 'deny', message: 'HK-perm-no' } })],
      notification: [entry('note')],
    },
  },
  {
    name: 'permissionRequest allow; view needs no permission',
    files: { 'a.txt': 'alpha\n' },
    turns: [{ tools: [{ name: 'view', input: { path: '{project}/a.txt' } }] }, bash(1), done],
    hooks: { permissionRequest: [entry('perm', { out: { behavior: 'allow' } })], preToolUse: [entry('pre')], postToolUse: [entry('post')] },
  },
  {
    name: 'permissionRequest crash refuses the call (fail closed)',
    turns: [bash(1), done],
    hooks: { permissionRequest: [entry('perm', { err: 'HK-oops', exit: 1 })] },
  },
  {
    name: 'permissionRequest exit 2 refuses the call',
    turns: [bash(1), done],
    hooks: { permissionRequest: [entry('perm', { err: 'HK-no', exit: 2 })] },
  },
  {
    name: 'permissionRequest timeout lets the call run',
    turns: [bash(1), done],
    hooks: {
      permissionRequest: [
        { label: 'perm', replies: [{ sleepMs: 9000, out: { behavior: 'deny', message: 'HK-late' } }], handler: { timeoutSec: 3 } },
      ],
    },
  },
  {
    name: 'a failing command is a success; a failing view is postToolUseFailure',
    turns: [
      { tools: [{ name: 'bash', input: { command: 'touch ran-1; echo out; exit 3', description: 'fails' } }] },
      { tools: [{ name: 'view', input: { path: '{project}/missing.txt' } }] },
      done,
    ],
    hooks: {
      postToolUse: [entry('post')],
      postToolUseFailure: [entry('failure', { out: { additionalContext: 'HK-failure' } })],
      errorOccurred: [entry('error')],
    },
  },
  {
    name: 'untrusted folder: workspace hooks held back, user hooks run',
    trust: 'none',
    turns: [bash(1), done],
    hooks: { preToolUse: [entry('repo', { out: { permissionDecision: 'deny', permissionDecisionReason: 'HK-repo' } })] },
    also: [{ file: '~/.copilot/hooks/u.json', hooks: { preToolUse: [entry('user')] } }],
  },
  {
    name: 'COPILOT_ALLOW_ALL=true trusts the folder',
    trust: 'allow-all',
    turns: [bash(1), done],
    hooks: { preToolUse: [entry('repo')] },
  },
  {
    name: 'GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true trusts the folder',
    trust: 'repo-hooks',
    turns: [bash(1), done],
    hooks: { preToolUse: [entry('repo')] },
  },
  {
    name: 'COPILOT_ALLOW_ALL=1 does not trust the folder',
    trust: 'none',
    env: { COPILOT_ALLOW_ALL: '1' },
    turns: [bash(1), done],
    hooks: { preToolUse: [entry('repo')] },
  },
  {
    name: 'camelCase matchers: whole-name regular expressions',
    turns: [bash(1), done],
    hooks: {
      preToolUse: [
        { ...entry('bash'), matcher: 'bash' },
        { ...entry('Bash'), matcher: 'Bash' },
        { ...entry('ba'), matcher: 'ba' },
        { ...entry('ba-star'), matcher: 'ba.*' },
        { ...entry('alt'), matcher: 'view|bash' },
        { ...entry('star'), matcher: '*' },
        { ...entry('empty'), matcher: '' },
        { ...entry('anchored'), matcher: '^bash$' },
      ],
    },
  },
  {
    name: 'Claude-format matchers',
    file: '.claude/settings.json',
    turns: [bash(1), done],
    hooks: {
      PreToolUse: [
        { matcher: 'Bash', hooks: [hook('Bash')] },
        { matcher: 'bash', hooks: [hook('bash')] },
        { matcher: 'Ba', hooks: [hook('Ba')] },
        { matcher: 'Bash|Write', hooks: [hook('alt')] },
        { matcher: '*', hooks: [hook('star')] },
        { matcher: '', hooks: [hook('empty')] },
        { hooks: [hook('none')] },
        { matcher: 'B.*', hooks: [hook('regex')] },
      ],
    },
  },
  {
    name: 'entry cwd, env, timeout alias, command key',
    files: { 'sub/.keep': '' },
    turns: [bash(1), done],
    hooks: {
      preToolUse: [
        { label: 'cwd', command: 'pwd > {project}/cwd.txt; {hook}', handler: { cwd: 'sub', env: { HK_PLAIN: 'from-entry' }, timeout: 5 } },
        { label: 'cmd', key: 'command' },
      ],
    },
    compareFiles: ['cwd.txt'],
  },
  {
    name: 'userPromptSubmitted modifiedPrompt',
    turns: [done],
    hooks: { userPromptSubmitted: [entry('prompt', { out: { modifiedPrompt: 'HK-rewritten prompt' } })] },
  },
  {
    name: 'userPromptSubmitted block',
    turns: [bash(1), done],
    hooks: { userPromptSubmitted: [entry('prompt', { out: { decision: 'block', reason: 'HK-no' } })], sessionEnd: [entry('end')] },
  },
  {
    name: 'postToolUse modifiedResult',
    turns: [bash(1), done],
    hooks: { postToolUse: [entry('post', { out: { modifiedResult: { resultType: 'success', textResultForLlm: 'HK-replaced' } } })] },
  },
);

const cm = (name: string, groups: Array<{ matcher?: string; label: string }>): CopilotCase => ({
  name,
  file: '.claude/settings.json',
  turns: [bash(1), done],
  hooks: { PreToolUse: groups.map((g) => ({ ...(g.matcher !== undefined ? { matcher: g.matcher } : {}), hooks: [hook(g.label)] })) },
});
COPILOT_CASES.push(
  cm('Claude-format matchers name Claude or Copilot tool names, whole', [
    { matcher: 'Bash', label: 'Bash' },
    { matcher: 'bash', label: 'bash' },
    { matcher: 'Ba', label: 'Ba' },
    { matcher: 'Bash|Write', label: 'alt' },
    { matcher: 'B.*', label: 'regex' },
  ]),
  cm('Claude-format "*" matches every tool', [
    { matcher: '*', label: 'star' },
    { matcher: 'Bash', label: 'Bash' },
  ]),
  cm('Claude-format group without a matcher matches every tool', [{ label: 'none' }, { matcher: 'Bash', label: 'Bash' }]),
  cm('Claude-format empty group matcher loads nothing from the file', [
    { matcher: '', label: 'empty' },
    { matcher: 'Bash', label: 'Bash' },
  ]),
  {
    name: 'camelCase "*" matches nothing, ".*" and no matcher everything',
    turns: [bash(1), done],
    hooks: { preToolUse: [{ ...entry('star'), matcher: '*' }, { ...entry('dot'), matcher: '.*' }, entry('nomatcher')] },
  },
  {
    name: 'environment',
    env: { HK_SECRET_TOKEN: 'hk-secret', HK_PLAIN: 'plain', OPENAI_API_KEY: 'sk-x', AWS_SECRET_ACCESS_KEY: 'x' },
    // Copilot CLI passes HK_SECRET_TOKEN on; Hookline's sanitised environment does not. The variables of the contract compare in every other case.
    differs: { aspects: ['env'], row: 'Secrets in the environment' },
    turns: [done],
    hooks: { sessionStart: [entry('start')] },
    also: [{ file: '.claude/settings.json', hooks: { SessionStart: group(undefined, hook('claude')) } }],
  },
  {
    name: 'sessionStart in the entry cwd',
    files: { 'sub/.keep': '' },
    turns: [done],
    hooks: {
      sessionStart: [
        { label: 'cwd', command: 'pwd > "$COPILOT_PROJECT_DIR/cwd.txt"; {hook}', handler: { cwd: 'sub' } },
        { label: 'nocwd', command: 'pwd > "$COPILOT_PROJECT_DIR/nocwd.txt"; {hook}' },
      ],
    },
    compareFiles: ['cwd.txt', 'nocwd.txt'],
  },
);

COPILOT_CASES.push(
  {
    name: 'tools in both formats',
    files: { 'a.txt': 'alpha\nbeta\n' },
    turns: [
      { tools: [{ name: 'view', input: { path: '{project}/a.txt' } }] },
      { tools: [{ name: 'create', input: { path: '{project}/new.txt', file_text: 'one\n' } }] },
      { tools: [{ name: 'edit', input: { path: '{project}/a.txt', old_str: 'beta', new_str: 'BETA' } }] },
      // one match: with several, the real glob lists them in directory order, which varies by file system
      { tools: [{ name: 'glob', input: { pattern: 'n*.txt' } }] },
      { tools: [{ name: 'grep', input: { pattern: 'alpha' } }] },
      done,
    ],
    hooks: { preToolUse: [entry('pre')], permissionRequest: [entry('perm')] },
    also: [{ file: '.claude/settings.json', hooks: { PreToolUse: group('*', hook('cpre')), PostToolUse: group('*', hook('cpost')) } }],
  },
  {
    name: 'Claude format: BASH matcher, an empty matcher off tool events, settings.local.json',
    file: '.claude/settings.json',
    turns: [bash(1), done],
    hooks: {
      PreToolUse: [{ matcher: 'BASH', hooks: [hook('BASH')] }],
      PostToolUse: [{ matcher: '', hooks: [hook('empty')] }],
      SessionStart: group(undefined, hook('start')),
    },
    also: [{ file: '.claude/settings.local.json', hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [hook('local')] }] } }],
  },
  {
    name: 'Claude format: Stop block',
    file: '.claude/settings.json',
    turns: [{ text: 'first answer' }, { text: 'second answer' }],
    hooks: { Stop: group(undefined, hook('stop', { out: { decision: 'block', reason: 'HK-claude-stop' } }, {})) },
  },
  {
    name: 'exit 2 off preToolUse shows stderr',
    turns: [bash(1), done],
    hooks: {
      sessionStart: [entry('start', { err: 'HK-start-err', exit: 2 })],
      userPromptSubmitted: [entry('prompt', { err: 'HK-prompt-err', exit: 2 })],
      postToolUse: [entry('post', { err: 'HK-post-err', exit: 2 })],
    },
  },
  {
    name: 'exit 1 off preToolUse is ignored',
    turns: [bash(1), done],
    hooks: {
      sessionStart: [entry('start', { err: 'HK-start-err', exit: 1 })],
      userPromptSubmitted: [entry('prompt', { err: 'HK-prompt-err', exit: 1 })],
      postToolUse: [entry('post', { err: 'HK-post-err', exit: 1 })],
      agentStop: [entry('stop', { err: 'HK-stop-err', exit: 1 })],
    },
  },
  {
    name: 'preToolUse output that is not an answer is ignored',
    turns: [bash(1), bash(2), bash(3), done],
    hooks: {
      preToolUse: [
        entry('pre', { out: 'HK-plain text' }, { out: '{"permissionDecision": "deny", oops' }, { out: { permissionDecision: 'nope' } }),
      ],
    },
  },
);

COPILOT_CASES.push(
  {
    name: 'several contexts of one event',
    turns: [bash(1), done],
    hooks: {
      sessionStart: [entry('s1', { out: { additionalContext: 'HK-s1' } }), entry('s2', { out: { additionalContext: 'HK-s2' } })],
      preToolUse: [entry('a', { out: { additionalContext: 'HK-a' } }), entry('c', { out: { additionalContext: 'HK-c' } })],
      postToolUse: [entry('x', { out: { additionalContext: 'HK-x' } }), entry('y', { out: { additionalContext: 'HK-y' } })],
    },
  },
  {
    name: 'several userPromptSubmitted contexts: the last one',
    turns: [done],
    hooks: {
      userPromptSubmitted: [entry('p1', { out: { additionalContext: 'HK-p1' } }), entry('p2', { out: { additionalContext: 'HK-p2' } })],
    },
  },
  {
    name: 'unknown entry fields are ignored',
    turns: [bash(1), done],
    hooks: { preToolUse: [{ label: 'odd', handler: { onFailure: 'block', whatever: 1 } }, entry('plain')] },
  },
  {
    name: 'Claude format: top-level modifiedArgs, updatedInput, permissionDecision',
    file: '.claude/settings.json',
    turns: [bash(1), bash(2), bash(3), done],
    hooks: {
      PreToolUse: group(
        'Bash',
        hook(
          'pre',
          { out: { modifiedArgs: { command: 'touch ran-11' } } },
          { out: { updatedInput: { command: 'touch ran-12' } } },
          { out: { permissionDecision: 'deny' } },
        ),
      ),
    },
  },
  {
    name: 'Claude format: BASH and read matchers',
    file: '.claude/settings.json',
    turns: [bash(1), done],
    hooks: {
      PreToolUse: [
        { matcher: 'BASH', hooks: [hook('BASH')] },
        { matcher: 'read', hooks: [hook('read')] },
      ],
    },
  },
  {
    name: '~/.copilot/config.json is not read; settings.json and settings.local.json are',
    turns: [done],
    hooks: {},
    also: [
      { file: '~/.copilot/config.json', hooks: { sessionStart: [entry('config-json')] } },
      { file: '~/.copilot/settings.json', hooks: { sessionStart: [entry('settings-json')] } },
      { file: '.github/copilot/settings.local.json', hooks: { sessionStart: [entry('repo-settings-local')] } },
    ],
  },
  {
    name: 'deny without a reason; ask with nobody to ask',
    turns: [bash(1), bash(2), done],
    hooks: {
      preToolUse: [
        entry('pre', { out: { permissionDecision: 'deny' } }, { out: { permissionDecision: 'ask', permissionDecisionReason: 'HK-ask' } }),
      ],
    },
  },
  {
    name: 'http hook on loopback with COPILOT_HOOK_ALLOW_LOCALHOST=1',
    env: { COPILOT_HOOK_ALLOW_LOCALHOST: '1' },
    turns: [bash(1), done],
    hooks: {
      preToolUse: [
        { label: 'web', handler: { type: 'http' }, replies: [{ out: { permissionDecision: 'deny', permissionDecisionReason: 'HK-web' } }] },
      ],
    },
  },
  {
    name: 'loopback http hook without the switch is skipped',
    turns: [bash(1), done],
    hooks: {
      preToolUse: [
        { label: 'web', handler: { type: 'http' }, replies: [{ out: { permissionDecision: 'deny', permissionDecisionReason: 'HK-web' } }] },
      ],
    },
  },
);

COPILOT_CASES.push(
  {
    name: 'agentStop blocking every time is capped',
    turns: [{ text: 'answer' }],
    hooks: {
      agentStop: [entry('stop', { out: { decision: 'block', reason: 'HK-again' } })],
      userPromptSubmitted: [entry('prompt')],
      sessionEnd: [entry('end')],
    },
  },
  {
    name: '-p /compact runs preCompact only',
    before: ['hello there'],
    prompt: '/compact',
    turns: [{ text: 'first reply' }, { text: 'HK-summary' }],
    differs: { aspects: ['requests'], row: 'Compaction' },
    hooks: {
      preCompact: [entry('pre')],
      sessionStart: [entry('start')],
      userPromptSubmitted: [entry('prompt')],
      sessionEnd: [entry('end')],
    },
  },
  {
    name: 'a task subagent',
    differs: { aspects: ['hooks', 'env', 'counts', 'requests'], row: 'Subagents' },
    turns: [
      { tools: [{ name: 'task', input: { description: 'look around', prompt: 'list files', agent_type: 'explore', name: 'scout' } }] },
      { text: 'sub answer' },
      done,
    ],
    hooks: {
      subagentStart: [entry('substart', { out: { additionalContext: 'HK-sub' } })],
      subagentStop: [entry('substop')],
      preToolUse: [entry('pre')],
      agentStop: [entry('stop')],
    },
  },
  {
    name: 'the API refuses the request',
    turns: [{ error: { status: 400, type: 'invalid_request_error', message: 'HK-bad-request' } }],
    normalize: apiError,
    differs: { aspects: ['user'], row: 'API errors' },
    hooks: { errorOccurred: [entry('error')], sessionEnd: [entry('end')], agentStop: [entry('stop')] },
  },
  {
    name: 'default mode: permissionRequest answers the approval',
    mode: 'default',
    turns: [bash(1), bash(2), done],
    hooks: {
      permissionRequest: [entry('perm', { out: { behavior: 'allow' } }, {})],
      preToolUse: [entry('pre')],
      notification: [entry('note')],
    },
  },
  {
    name: 'a continued session',
    before: ['first'],
    turns: [{ text: 'one' }, { text: 'two' }],
    hooks: { sessionStart: [entry('start')], sessionEnd: [entry('end')] },
  },
);

COPILOT_CASES.push(
  {
    name: 'each preToolUse hook reads the earlier rewrite',
    turns: [bash(1), done],
    hooks: {
      preToolUse: [
        entry('a', { out: { modifiedArgs: { command: 'touch ran-2', description: 'a' } } }),
        entry('b', { out: { modifiedArgs: { command: 'touch ran-3', description: 'b' } } }),
        entry('c'),
      ],
      postToolUse: [entry('post')],
    },
  },
  {
    name: 'disableAllHooks turns off its own file only',
    turns: [bash(1), done],
    hooks: { preToolUse: [entry('repo-a')] },
    also: [
      { file: '.github/hooks/off.json', hooks: { preToolUse: [entry('repo-off')] }, extra: { disableAllHooks: true } },
      { file: '~/.copilot/hooks/u.json', hooks: { preToolUse: [entry('user')] } },
    ],
  },
  {
    name: 'user settings.json runs after the user hooks folder',
    turns: [done],
    hooks: start('repo'),
    also: [
      { file: '~/.copilot/settings.json', hooks: start('user-settings') },
      { file: '~/.copilot/hooks/u.json', hooks: start('user-dir') },
      { file: '.github/copilot/settings.json', hooks: start('repo-settings') },
    ],
  },
  {
    name: 'Claude format: PermissionRequest answers',
    file: '.claude/settings.json',
    turns: [bash(1), bash(2), done],
    hooks: {
      PermissionRequest: group(
        undefined,
        hook(
          'perm',
          {
            out: { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'HK-claude-perm' } } },
          },
          { out: { behavior: 'deny', message: 'HK-top-perm' } },
        ),
      ),
    },
  },
  {
    name: 'two userPromptSubmitted blocks: the last reason',
    turns: [done],
    hooks: {
      userPromptSubmitted: [
        entry('p1', { out: { decision: 'block', reason: 'HK-p1' } }),
        entry('p2', { out: { decision: 'block', reason: 'HK-p2' } }),
      ],
    },
  },
  {
    name: "~/.claude/settings.json is not Copilot's (hookline agent runs it as Claude Code's)",
    turns: [done],
    hooks: start('repo'),
    also: [{ file: '~/.claude/settings.json', hooks: { SessionStart: group(undefined, hook('claude-user')) } }],
    differs: { aspects: ['hooks', 'env', 'counts'], row: "The user's Claude Code settings" },
  },
);
