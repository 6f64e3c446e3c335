// The Gemini CLI cases of the real-agent suite. Every text a hook prints carries "HK-" so the
// suite finds it wherever it lands (observe.ts).
import { group, hook, shell, type GeminiCase } from './gemini.js';
import type { Turn } from './model-server.js';

const ctx = (event: string, text: string) => ({ hookSpecificOutput: { hookEventName: event, additionalContext: text } });
const specific = (event: string, fields: Record<string, unknown>) => ({ hookSpecificOutput: { hookEventName: event, ...fields } });
const done: Turn = { text: 'finished' };
// Gemini CLI runs a tool with a hook's `tool_input` alone; Hookline merges it over the model's arguments (the row names the
// difference): what is left of the model's own arguments after the rewrite is not compared.
const rewritten =
  (...keys: string[]) =>
  (i: any) =>
    i.hook_event_name === 'AfterTool' && i.tool_input
      ? { ...i, tool_input: Object.fromEntries(Object.entries(i.tool_input).filter(([k]) => !keys.includes(k))) }
      : i;
const MERGE = 'A partial `tool_input` rewrite';
const call = (name: string, input: Record<string, unknown>): Turn => ({ tools: [{ name, input }] });
const write = (file: string, content: string) => call('write_file', { file_path: `{project}/${file}`, content });
const read = (file: string) => call('read_file', { file_path: `{project}/${file}` });
const replace = (file: string, old_string: string, new_string: string) =>
  call('replace', { file_path: `{project}/${file}`, old_string, new_string, instruction: 'change it' });

export const GEMINI_CASES: GeminiCase[] = [
  {
    name: 'context from every event that gives it',
    turns: [shell(1), done],
    hooks: {
      SessionStart: group(undefined, hook('start', { out: ctx('SessionStart', 'HK-start') })),
      BeforeAgent: group(undefined, hook('agent', { out: ctx('BeforeAgent', 'HK-agent') })),
      BeforeTool: group('run_shell_command', hook('pre')),
      AfterTool: group('run_shell_command', hook('post', { out: ctx('AfterTool', 'HK-post') })),
      AfterAgent: group(undefined, hook('after')),
      SessionEnd: group(undefined, hook('end')),
    },
  },
  {
    name: 'model hooks: BeforeModel, BeforeToolSelection, AfterModel inputs',
    turns: [shell(1), { text: 'one line' }],
    hooks: {
      BeforeModel: group(undefined, hook('model')),
      BeforeToolSelection: group(undefined, hook('select')),
      AfterModel: group(undefined, hook('aftermodel')),
    },
  },
  {
    name: 'PreCompress',
    turns: [shell(1), done],
    hooks: { PreCompress: group(undefined, hook('compress')) },
    differs: { aspects: ['hooks', 'env', 'counts'], row: 'PreCompress' },
  },
  {
    name: 'systemMessage from every event',
    turns: [shell(1), done],
    hooks: {
      SessionStart: group(undefined, hook('start', { out: { systemMessage: 'HK-start-msg' } })),
      BeforeAgent: group(undefined, hook('agent', { out: { systemMessage: 'HK-agent-msg' } })),
      BeforeTool: group(undefined, hook('pre', { out: { systemMessage: 'HK-pre-msg' } })),
      AfterTool: group(undefined, hook('post', { out: { systemMessage: 'HK-post-msg' } })),
      AfterAgent: group(undefined, hook('after', { out: { systemMessage: 'HK-after-msg' } })),
      SessionEnd: group(undefined, hook('end', { out: { systemMessage: 'HK-end-msg' } })),
    },
  },
  {
    name: 'plain stdout, exit 0 and exit 1',
    turns: [shell(1), done],
    hooks: {
      BeforeTool: group(undefined, hook('pre', { out: 'HK-plain-pre\n' })),
      AfterTool: group(undefined, hook('post', { err: 'HK-warn-post\n', exit: 1 })),
    },
  },
  {
    name: 'BeforeTool deny',
    turns: [shell(1), done],
    hooks: { BeforeTool: group('run_shell_command', hook('pre', { out: { decision: 'deny', reason: 'HK-deny' } })) },
    // The model reads the same words; their wire form differs (geminiBlocks).
    differs: { aspects: [], row: 'A failed or refused tool call reaches the model' },
  },
  {
    name: 'BeforeTool block',
    turns: [shell(1), done],
    hooks: { BeforeTool: group('run_shell_command', hook('pre', { out: { decision: 'block', reason: 'HK-block' } })) },
  },
  {
    name: 'BeforeTool exit 2',
    turns: [shell(1), done],
    hooks: { BeforeTool: group('run_shell_command', hook('pre', { err: 'HK-stderr', exit: 2 })) },
  },
  {
    name: 'BeforeTool exit 2 with JSON allow',
    turns: [shell(1), done],
    hooks: { BeforeTool: group('run_shell_command', hook('pre', { out: { decision: 'allow' }, err: 'HK-stderr', exit: 2 })) },
  },
  {
    name: 'BeforeTool continue false',
    turns: [shell(1), done],
    hooks: { BeforeTool: group('run_shell_command', hook('pre', { out: { continue: false, stopReason: 'HK-stopped' } })) },
  },
  {
    name: 'BeforeTool ask in yolo mode',
    differs: { aspects: ['requests'], row: 'A BeforeTool `ask` with nobody to ask' },
    turns: [shell(1), done],
    hooks: {
      BeforeTool: group('run_shell_command', hook('pre', { out: { decision: 'ask', reason: 'HK-ask' } })),
      Notification: group(undefined, hook('note')),
    },
  },
  {
    name: 'BeforeTool ask on read_file in default mode',
    differs: { aspects: ['requests'], row: 'A BeforeTool `ask` with nobody to ask' },
    mode: 'default',
    files: { 'a.txt': 'alpha\n' },
    turns: [read('a.txt'), done],
    hooks: {
      BeforeTool: group('read_file', hook('pre', { out: { decision: 'ask', reason: 'HK-ask' } })),
      Notification: group(undefined, hook('note')),
    },
  },
  {
    name: 'BeforeTool rewrites the command',
    normalize: rewritten('description'),
    differs: { aspects: [], row: MERGE },
    turns: [shell(1), done],
    hooks: {
      BeforeTool: group('run_shell_command', hook('pre', { out: specific('BeforeTool', { tool_input: { command: 'touch ran-2' } }) })),
      AfterTool: group('run_shell_command', hook('post', { out: ctx('AfterTool', 'HK-after-rewrite') })),
    },
  },
  {
    name: 'BeforeTool rewrites write_file with content alone',
    // Gemini CLI runs write_file with {content} alone, which fails validation: no AfterTool, another result.
    differs: { aspects: ['hooks', 'env', 'counts', 'model'], row: MERGE },
    turns: [write('notes.txt', 'one\n'), done],
    hooks: {
      BeforeTool: group('write_file', hook('pre', { out: specific('BeforeTool', { tool_input: { content: 'HK-rewritten\n' } }) })),
      AfterTool: group('write_file', hook('post')),
    },
  },
  {
    name: 'sequential rewrites chain',
    normalize: rewritten('description'),
    differs: { aspects: [], row: MERGE },
    turns: [shell(1), done],
    hooks: {
      BeforeTool: [
        {
          matcher: 'run_shell_command',
          sequential: true,
          hooks: [
            hook('first', { out: specific('BeforeTool', { tool_input: { command: 'touch ran-2', description: 'HK-first' } }) }),
            hook('second', { out: specific('BeforeTool', { tool_input: { command: 'touch ran-3' } }) }),
          ],
        },
      ],
      AfterTool: group('run_shell_command', hook('post')),
    },
  },
  {
    name: 'parallel hooks: one denies',
    turns: [shell(1), done],
    hooks: {
      BeforeTool: group(
        'run_shell_command',
        hook('allow', { out: { decision: 'allow', systemMessage: 'HK-fine' } }),
        hook('deny', { out: { decision: 'deny', reason: 'HK-no' } }),
      ),
    },
  },
  {
    name: 'a hook past its timeout',
    turns: [shell(1), done],
    hooks: {
      BeforeTool: group('run_shell_command', {
        label: 'pre',
        replies: [{ sleepMs: 30000, out: { decision: 'deny', reason: 'HK-late' } }],
        handler: { timeout: 3000 },
      }),
    },
  },
  {
    name: 'invalid JSON output',
    turns: [shell(1), done],
    hooks: { BeforeTool: group('run_shell_command', hook('pre', { out: '{"decision": "deny", reason: HK-bad' })) },
  },
  {
    name: 'matchers: alternatives, star, empty, prefix, invalid regex',
    turns: [shell(1), done],
    hooks: {
      BeforeTool: [
        { matcher: 'run_shell_command|write_file', hooks: [hook('alt')] },
        { matcher: '*', hooks: [hook('star')] },
        { matcher: '', hooks: [hook('empty')] },
        { matcher: 'run_shell', hooks: [hook('prefix')] },
        { matcher: 'Run_Shell', hooks: [hook('case')] },
        { matcher: '^run_.*_command$', hooks: [hook('regex')] },
        { matcher: '(unclosed', hooks: [hook('invalid')] },
        { matcher: 'read_file', hooks: [hook('other')] },
      ],
    },
  },
  {
    name: 'lifecycle matchers: exact strings',
    turns: [done],
    hooks: {
      SessionStart: [
        { matcher: 'startup', hooks: [hook('startup')] },
        { matcher: 'start.*', hooks: [hook('pattern')] },
        { matcher: 'resume', hooks: [hook('resume')] },
      ],
      SessionEnd: [
        { matcher: 'exit', hooks: [hook('exit')] },
        { matcher: 'other', hooks: [hook('other')] },
      ],
    },
  },
  {
    name: 'AfterTool deny',
    turns: [shell(1), done],
    hooks: { AfterTool: group('run_shell_command', hook('post', { out: { decision: 'deny', reason: 'HK-hidden' } })) },
  },
  {
    name: 'AfterTool exit 2',
    turns: [shell(1), done],
    hooks: { AfterTool: group('run_shell_command', hook('post', { err: 'HK-post-stderr', exit: 2 })) },
  },
  {
    name: 'AfterTool continue false',
    turns: [shell(1), shell(2), done],
    hooks: { AfterTool: group('run_shell_command', hook('post', { out: { continue: false, stopReason: 'HK-stop-after' } })) },
  },
  {
    name: 'AfterTool tail call',
    turns: [shell(1), done],
    hooks: {
      BeforeTool: group(undefined, hook('pre')),
      AfterTool: group(
        'run_shell_command',
        hook(
          'post',
          { out: specific('AfterTool', { tailToolCallRequest: { name: 'run_shell_command', args: { command: 'touch ran-9' } } }) },
          {},
        ),
      ),
    },
  },
  {
    name: 'a shell command that fails',
    turns: [call('run_shell_command', { command: 'touch ran-1; echo out; echo err >&2; exit 3', description: 'fails' }), done],
    hooks: { AfterTool: group('run_shell_command', hook('post')) },
  },
  {
    name: 'write_file, read_file, replace: tool_input and tool_response',
    files: { 'a.txt': 'alpha\nbeta\ngamma\n' },
    turns: [read('a.txt'), replace('a.txt', 'beta', 'BETA'), write('b.txt', 'new file\n'), done],
    hooks: { BeforeTool: group(undefined, hook('pre')), AfterTool: group(undefined, hook('post')) },
  },
  {
    name: 'a tool error: read_file of a missing file',
    turns: [read('missing.txt'), done],
    hooks: { AfterTool: group(undefined, hook('post')) },
  },
  {
    name: 'a tool the agent does not have',
    turns: [call('no_such_tool', { x: 1 }), done],
    hooks: { BeforeTool: group(undefined, hook('pre')), AfterTool: group(undefined, hook('post')) },
  },
  {
    name: 'BeforeAgent deny',
    turns: [shell(1), done],
    hooks: {
      BeforeAgent: group(undefined, hook('agent', { out: { decision: 'deny', reason: 'HK-no-prompt' } })),
      AfterAgent: group(undefined, hook('after')),
    },
  },
  {
    name: 'BeforeAgent exit 2',
    turns: [shell(1), done],
    hooks: { BeforeAgent: group(undefined, hook('agent', { err: 'HK-no-stderr', exit: 2 })) },
  },
  {
    name: 'BeforeAgent continue false',
    turns: [shell(1), done],
    hooks: {
      BeforeAgent: group(undefined, hook('agent', { out: { continue: false, stopReason: 'HK-stop-prompt' } })),
      AfterAgent: group(undefined, hook('after')),
    },
  },
  {
    name: 'AfterAgent deny once',
    turns: [{ text: 'first answer' }, { text: 'second answer' }],
    hooks: {
      BeforeAgent: group(undefined, hook('agent')),
      AfterAgent: group(undefined, hook('after', { out: { decision: 'deny', reason: 'HK-try-again' } }, {})),
    },
  },
  {
    name: 'AfterAgent exit 2 once',
    turns: [{ text: 'first answer' }, { text: 'second answer' }],
    hooks: { AfterAgent: group(undefined, hook('after', { err: 'HK-retry-stderr', exit: 2 }, {})) },
  },
  {
    name: 'AfterAgent continue false',
    turns: [{ text: 'first answer' }],
    hooks: { AfterAgent: group(undefined, hook('after', { out: { continue: false, stopReason: 'HK-stop-end' } })) },
  },
  {
    name: 'AfterAgent deny with clearContext',
    turns: [{ text: 'first answer' }, { text: 'second answer' }],
    hooks: {
      AfterAgent: group(
        undefined,
        hook('after', { out: { decision: 'deny', reason: 'HK-fresh', ...specific('AfterAgent', { clearContext: true }) } }, {}),
      ),
    },
  },
  {
    name: 'BeforeModel deny',
    turns: [done],
    hooks: { BeforeModel: group(undefined, hook('model', { out: { decision: 'deny', reason: 'HK-no-model' } })) },
  },
  {
    name: 'BeforeModel deny with a synthetic response',
    turns: [done],
    hooks: {
      BeforeModel: group(
        undefined,
        hook('model', {
          out: {
            decision: 'deny',
            reason: 'HK-synthetic',
            ...specific('BeforeModel', {
              llm_response: { candidates: [{ content: { role: 'model', parts: ['HK-canned answer'] }, finishReason: 'STOP' }] },
            }),
          },
        }),
      ),
      AfterModel: group(undefined, hook('aftermodel')),
      AfterAgent: group(undefined, hook('after')),
    },
  },
  {
    name: 'BeforeModel synthetic response without a deny',
    turns: [done],
    hooks: {
      BeforeModel: group(
        undefined,
        hook('model', {
          out: specific('BeforeModel', {
            llm_response: { candidates: [{ content: { role: 'model', parts: ['HK-ignored answer'] }, finishReason: 'STOP' }] },
          }),
        }),
      ),
    },
  },
  {
    name: 'BeforeModel overrides the request',
    turns: [done],
    hooks: {
      BeforeModel: group(
        undefined,
        hook('model', {
          out: specific('BeforeModel', {
            llm_request: {
              config: { temperature: 0.2, maxOutputTokens: 300 },
              messages: [{ role: 'user', content: 'HK-replaced prompt' }],
            },
          }),
        }),
      ),
      AfterModel: group(undefined, hook('aftermodel')),
    },
  },
  {
    name: 'BeforeModel exit 2',
    turns: [done],
    hooks: { BeforeModel: group(undefined, hook('model', { err: 'HK-model-stderr', exit: 2 })) },
  },
  {
    name: 'BeforeModel continue false',
    turns: [done],
    hooks: { BeforeModel: group(undefined, hook('model', { out: { continue: false, stopReason: 'HK-stop-model' } })) },
  },
  {
    name: 'BeforeToolSelection NONE',
    differs: { aspects: ['ran'], row: 'BeforeToolSelection' },
    turns: [shell(1), done],
    hooks: {
      BeforeToolSelection: group(undefined, hook('select', { out: specific('BeforeToolSelection', { toolConfig: { mode: 'NONE' } }) })),
    },
  },
  {
    name: 'BeforeToolSelection allows only read_file',
    differs: { aspects: ['ran'], row: 'BeforeToolSelection' },
    turns: [shell(1), done],
    hooks: {
      BeforeToolSelection: group(
        undefined,
        hook('select', { out: specific('BeforeToolSelection', { toolConfig: { mode: 'ANY', allowedFunctionNames: ['read_file'] } }) }),
      ),
    },
  },
  {
    name: 'AfterModel replaces the answer',
    turns: [{ text: 'the secret is sk-123' }],
    hooks: {
      AfterModel: group(
        undefined,
        hook('aftermodel', {
          out: specific('AfterModel', { llm_response: { candidates: [{ content: { role: 'model', parts: ['HK-redacted'] } }] } }),
        }),
      ),
      AfterAgent: group(undefined, hook('after')),
    },
  },
  {
    name: 'AfterModel deny',
    // Gemini CLI shows the denied chunk, keeps it and ends the turn as if it were the answer.
    differs: { aspects: ['hooks', 'env', 'counts'], row: 'An AfterModel deny' },
    turns: [{ text: 'an answer' }],
    hooks: {
      AfterModel: group(undefined, hook('aftermodel', { out: { decision: 'deny', reason: 'HK-no-answer' } })),
      AfterAgent: group(undefined, hook('after')),
    },
  },
  {
    name: 'AfterModel continue false',
    turns: [{ text: 'an answer' }],
    hooks: { AfterModel: group(undefined, hook('aftermodel', { out: { continue: false, stopReason: 'HK-stop-stream' } })) },
  },
  {
    name: 'SessionStart plain stdout and exit 2',
    turns: [done],
    hooks: {
      SessionStart: group(undefined, hook('start1', { out: 'HK-start-text\n' }), hook('start2', { err: 'HK-start-stderr', exit: 2 })),
    },
  },
  {
    name: 'default mode: tools that need approval',
    mode: 'default',
    files: { 'a.txt': 'alpha\n' },
    turns: [shell(1), write('x.txt', 'x'), read('a.txt'), done],
    hooks: {
      Notification: group(undefined, hook('note')),
      BeforeTool: group(undefined, hook('pre')),
    },
  },
  {
    name: 'auto_edit mode',
    mode: 'auto_edit',
    turns: [write('x.txt', 'x'), shell(1), done],
    hooks: {
      Notification: group(undefined, hook('note')),
      BeforeTool: group(undefined, hook('pre')),
    },
  },
  {
    name: 'user settings hooks',
    scope: 'user',
    turns: [shell(1), done],
    hooks: {
      BeforeTool: group('run_shell_command', hook('pre', { out: { decision: 'deny', reason: 'HK-user-deny' } })),
      SessionStart: group(undefined, hook('start')),
    },
  },
  {
    name: 'an untrusted folder',
    differs: { aspects: ['ran', 'requests'], row: 'In `-p`, a folder that is not trusted' },
    trusted: false,
    turns: [shell(1), done],
    hooks: { BeforeTool: group(undefined, hook('pre', { out: { decision: 'deny', reason: 'HK-workspace' } })) },
  },
  {
    name: 'hook env and variables in the command',
    turns: [shell(1), done],
    hooks: {
      BeforeTool: group('run_shell_command', {
        label: 'pre',
        command: '{hook} "$GEMINI_PROJECT_DIR" "$HK_TEAM"',
        handler: { env: { HK_TEAM: 'platform' } },
      }),
    },
  },
  {
    name: 'hooksConfig.disabled and duplicates',
    settings: { hooksConfig: { disabled: ['off'] } },
    turns: [shell(1), done],
    hooks: {
      BeforeTool: [
        {
          matcher: 'run_shell_command',
          hooks: [
            { label: 'off', handler: { name: 'off' } },
            { label: 'dup', handler: { name: 'dup' } },
          ],
        },
        { hooks: [{ label: 'dup', handler: { name: 'dup' } }] },
      ],
    },
  },
  {
    name: 'the API key reaches hooks',
    envNames: ['GEMINI_API_KEY'],
    turns: [shell(1), done],
    hooks: { BeforeTool: group(undefined, hook('pre')) },
    differs: { aspects: ['env'], row: 'The whole environment reaches hooks' },
  },
  {
    name: 'contexts are escaped and joined',
    turns: [shell(1), done],
    hooks: {
      SessionStart: group(
        undefined,
        hook('start1', { out: ctx('SessionStart', 'HK-<s1>') }),
        hook('start2', { out: ctx('SessionStart', 'HK-s2') }),
      ),
      BeforeAgent: group(
        undefined,
        hook('agent1', { out: ctx('BeforeAgent', 'HK-<a1>') }),
        hook('agent2', { out: ctx('BeforeAgent', 'HK-a2') }),
      ),
      AfterTool: group(
        undefined,
        hook('post1', { out: ctx('AfterTool', 'HK-</hook_context>') }),
        hook('post2', { out: ctx('AfterTool', 'HK-p2') }),
      ),
      BeforeModel: group(undefined, hook('model')),
    },
  },
  {
    name: 'systemMessage from model hooks, suppressOutput',
    turns: [{ text: 'one line' }],
    hooks: {
      BeforeModel: group(undefined, hook('model', { out: { systemMessage: 'HK-model-msg' } })),
      BeforeToolSelection: group(undefined, hook('select', { out: { systemMessage: 'HK-select-msg' } })),
      AfterModel: group(undefined, hook('aftermodel', { out: { systemMessage: 'HK-after-model-msg' } })),
      AfterAgent: group(undefined, hook('after', { out: { systemMessage: 'HK-hidden-msg', suppressOutput: true } })),
    },
  },
  {
    name: 'BeforeAgent deny with a systemMessage',
    turns: [done],
    hooks: { BeforeAgent: group(undefined, hook('agent', { out: { decision: 'deny', reason: 'HK-reason', systemMessage: 'HK-said' } })) },
  },
  {
    name: 'decisions allow and approve, a JSON string, exit 1 with JSON',
    turns: [shell(1), shell(2), done],
    hooks: {
      BeforeTool: group(
        'run_shell_command',
        hook('allow', { out: { decision: 'allow', reason: 'HK-fine' } }, { out: { decision: 'approve' } }),
        hook('string', { out: JSON.stringify(JSON.stringify({ systemMessage: 'HK-double' })) }),
        hook('one', { out: { systemMessage: 'HK-exit-one' }, exit: 1 }),
      ),
    },
  },
  {
    name: 'project and user hooks: order and chaining',
    // Gemini CLI runs the user's hooks first; Hookline by the engine's source priority, the project's first.
    differs: { aspects: ['hooks', 'model'], row: 'Each settings hook is labelled' },
    turns: [done],
    hooks: {
      BeforeAgent: [{ sequential: true, hooks: [hook('project', { out: ctx('BeforeAgent', 'HK-project') })] }],
    },
    userHooks: { BeforeAgent: group(undefined, hook('user', { out: ctx('BeforeAgent', 'HK-user') })) },
  },
  {
    name: 'a resumed session',
    differs: { aspects: ['model'], row: 'On `--resume`' },
    before: ['hello'],
    turns: [{ text: 'first reply' }, { text: 'second reply' }],
    hooks: {
      SessionStart: group(undefined, hook('start', { out: ctx('SessionStart', 'HK-start') })),
      BeforeAgent: group(undefined, hook('agent')),
      SessionEnd: group(undefined, hook('end')),
    },
  },
  {
    name: 'an extension hook with ${extensionPath}',
    turns: [shell(1), done],
    hooks: {},
    extension: {
      name: 'guard',
      hooks: {
        BeforeTool: group('run_shell_command', {
          label: 'ext',
          command: '{hook} "${extensionPath}"',
          replies: [{ out: { decision: 'deny', reason: 'HK-ext' } }],
        }),
      },
    },
  },
  {
    name: 'BeforeTool ask on write_file and replace: notifications',
    differs: { aspects: ['requests', 'hooks', 'env', 'counts'], row: 'A BeforeTool `ask` with nobody to ask' },
    files: { 'some/deeply/nested/folder/of/files/a.txt': 'alpha\n' },
    turns: [
      write('some/deeply/nested/folder/of/files/new.txt', 'x\n'),
      replace('some/deeply/nested/folder/of/files/a.txt', 'alpha', 'beta'),
      done,
    ],
    hooks: {
      BeforeTool: group(undefined, hook('pre', { out: { decision: 'ask' } })),
      Notification: group(undefined, hook('note')),
    },
  },
];
