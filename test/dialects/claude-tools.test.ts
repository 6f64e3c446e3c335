// Claude Code dialect: the agent's tools as Claude Code's — tool_input in Claude's argument names
// (and a hook's updatedInput back), tool_response in Claude's shapes from real tool runs, and
// tool_use_ids shaped like Claude's.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { agentToolInput, claudeToolInput, claudeToolResponse, claudeToolUseId } from '../../src/dialects/claude/tools.js';
import { toClaudeInput, toGeminiOutput } from '../../src/dialects/claude/index.js';
import { applyBeforeTool } from '../../src/apply/index.js';
import { builtinTools, findTool, type AgentTool } from '../../src/agent/tools/index.js';
import { tmpDir } from './util.js';

const W = '/work/proj';
const tools = builtinTools();
const tool = (name: string): AgentTool => findTool(tools, name)!;

describe('tool_input in Claude Code argument names', () => {
  test('each tool: arguments renamed, paths absolute, arguments without a counterpart kept', () => {
    const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
      ['run_shell_command', { command: 'npm test', description: 'Run tests' }, { command: 'npm test', description: 'Run tests' }],
      ['run_shell_command', { command: 'ls', dir_path: 'src' }, { command: 'ls', dir_path: 'src' }],
      ['read_file', { file_path: 'src/a.ts' }, { file_path: `${W}/src/a.ts` }],
      ['read_file', { file_path: '/etc/x', start_line: 10, end_line: 29 }, { file_path: '/etc/x', offset: 10, limit: 20 }],
      ['write_file', { file_path: 'a.txt', content: 'hi\n' }, { file_path: `${W}/a.txt`, content: 'hi\n' }],
      [
        'replace',
        { file_path: 'a.ts', old_string: 'x', new_string: 'y', allow_multiple: true, instruction: 'rename' },
        { file_path: `${W}/a.ts`, old_string: 'x', new_string: 'y', replace_all: true, instruction: 'rename' },
      ],
      ['glob', { pattern: '**/*.ts' }, { pattern: '**/*.ts' }],
      ['glob', { pattern: '*.md', dir_path: 'docs', case_sensitive: true }, { pattern: '*.md', path: `${W}/docs`, case_sensitive: true }],
      [
        'search_file_content',
        { pattern: 'TODO', dir_path: 'src', include_pattern: '*.ts', context: 2, total_max_matches: 50 },
        // Only what the call said: none of the agent's defaults (case-insensitive, line numbers) leak in.
        { pattern: 'TODO', path: `${W}/src`, glob: '*.ts', '-C': 2, head_limit: 50 },
      ],
      [
        'search_file_content',
        { pattern: 'main', names_only: true, case_sensitive: true, fixed_strings: true },
        { pattern: 'main', output_mode: 'files_with_matches', '-i': false, fixed_strings: true },
      ],
      ['list_directory', { dir_path: '.', ignore: ['*.log'] }, { path: W, ignore: ['*.log'] }],
      [
        'ask_agent',
        { agent: 'reviewer', prompt: 'check it', withContext: true },
        { description: 'Ask reviewer', prompt: 'check it', subagent_type: 'reviewer', withContext: true },
      ],
      ['run_code', { language: 'python', code: 'print(1)' }, { language: 'python', code: 'print(1)' }],
    ];
    for (const [name, args, want] of cases) assert.deepEqual(claudeToolInput(name, args, W), want, name);
  });

  test("round trip: Claude's input back to the agent's arguments means the same call", () => {
    const calls: Array<[string, Record<string, unknown>]> = [
      ['run_shell_command', { command: 'ls -la', description: 'List', is_background: false }],
      ['read_file', { file_path: `${W}/a`, start_line: 5, end_line: 9 }],
      ['write_file', { file_path: `${W}/a`, content: 'x' }],
      ['replace', { file_path: `${W}/a`, old_string: 'a', new_string: 'b', allow_multiple: false }],
      ['glob', { pattern: '*.ts', dir_path: `${W}/src` }],
      ['search_file_content', { pattern: 'x', dir_path: `${W}/src`, names_only: false, case_sensitive: false, before: 1, after: 3 }],
      ['search_file_content', { pattern: 'x', names_only: true, case_sensitive: true }],
      ['list_directory', { dir_path: `${W}/lib` }],
      ['ask_agent', { agent: 'reviewer', prompt: 'p', withContext: false }],
    ];
    for (const [name, args] of calls) assert.deepEqual(agentToolInput(name, claudeToolInput(name, args, W), W), args, name);
  });

  test("a hook's updatedInput written the Claude way becomes valid arguments for the agent's tool", () => {
    const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
      ['run_shell_command', { command: 'npm test -- --silent', timeout: 60000 }, { command: 'npm test -- --silent' }],
      ['read_file', { file_path: 'notes.md', offset: 100, limit: 50 }, { file_path: `${W}/notes.md`, start_line: 100, end_line: 149 }],
      [
        'replace',
        { file_path: '/work/proj/b.ts', old_string: 'a', new_string: 'b', replace_all: true },
        { file_path: '/work/proj/b.ts', old_string: 'a', new_string: 'b', allow_multiple: true },
      ],
      // Claude's defaults: case-sensitive, file names only.
      [
        'search_file_content',
        { pattern: 'fixme', path: 'lib' },
        { pattern: 'fixme', dir_path: `${W}/lib`, names_only: true, case_sensitive: true },
      ],
      [
        'search_file_content',
        { pattern: 'x', output_mode: 'content', '-i': true, '-C': 4, head_limit: 0, type: 'js' },
        { pattern: 'x', names_only: false, case_sensitive: false, context: 4 },
      ],
      ['list_directory', { path: '/work/proj/sub' }, { dir_path: '/work/proj/sub' }],
      ['ask_agent', { description: 'Review', prompt: 'again', subagent_type: 'critic' }, { agent: 'critic', prompt: 'again' }],
    ];
    for (const [name, updated, want] of cases) {
      const args = agentToolInput(name, updated, W);
      assert.deepEqual(args, want, name);
      if (name !== 'ask_agent') assert.equal(tool(name).parameters.safeParse(args).success, true, name);
    }
  });

  test('PreToolUse end to end through the translation: updatedInput {file_path} replaces the call, dropped keys are gone', () => {
    const args = { file_path: 'a.ts', old_string: 'x', new_string: 'y', allow_multiple: true };
    const input = toClaudeInput(
      'BeforeTool',
      { session_id: 's', transcript_path: '/t', cwd: W, tool_name: 'replace', tool_input: args },
      { toolUseId: 'c1' },
    )!;
    assert.deepEqual(input.tool_input, { file_path: `${W}/a.ts`, old_string: 'x', new_string: 'y', replace_all: true });
    assert.match(String(input.tool_use_id), /^toolu_[A-Za-z0-9]{24}$/);
    const updatedInput = { file_path: `${W}/b.ts`, old_string: 'x', new_string: 'z' };
    const out = toGeminiOutput(
      { event: 'PreToolUse', output: { continue: true, systemMessages: [], errors: [], permissionDecision: 'allow', updatedInput } },
      { toolInput: args, toolName: 'replace', cwd: W },
    );
    const effect = applyBeforeTool(out, args);
    assert.equal(effect.action, 'run');
    const ran = Object.fromEntries(Object.entries((effect as { args: Record<string, unknown> }).args).filter(([, v]) => v !== undefined));
    assert.deepEqual(ran, { file_path: `${W}/b.ts`, old_string: 'x', new_string: 'z' });
  });

  test('tool_use_id: toolu_ and 24 base-62 characters, the same for the same call; Claude ids kept', () => {
    const a = claudeToolUseId('call_1');
    assert.match(a, /^toolu_[A-Za-z0-9]{24}$/);
    assert.equal(claudeToolUseId('call_1'), a);
    assert.notEqual(claudeToolUseId('call_2'), a);
    assert.equal(claudeToolUseId('toolu_01ABCdef'), 'toolu_01ABCdef');
  });
});

describe('tool_response in Claude Code shapes, from real tool runs', () => {
  const dir = tmpDir('hookline-cc-tools-');
  const ctx = { cwd: dir, signal: new AbortController().signal, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } };
  const run = async (name: string, args: Record<string, unknown>) => {
    const r = await tool(name).run(args as never, ctx);
    return claudeToolResponse(name, args, r) as Record<string, any>;
  };

  test('Write: create, then update with a structuredPatch and the original file', async () => {
    const created = await run('write_file', { file_path: 'a.txt', content: 'one\ntwo\n' });
    assert.deepEqual(created, {
      type: 'create',
      filePath: path.join(dir, 'a.txt'),
      content: 'one\ntwo\n',
      structuredPatch: [],
      originalFile: null,
      userModified: false,
    });
    const updated = await run('write_file', { file_path: 'a.txt', content: 'one\n2\n' });
    assert.equal(updated.type, 'update');
    assert.equal(updated.originalFile, 'one\ntwo\n');
    assert.deepEqual(updated.structuredPatch, [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: [' one', '-two', '+2'] }]);
  });

  test('Edit: filePath, oldString, newString, originalFile, structuredPatch, userModified, replaceAll', async () => {
    fs.writeFileSync(path.join(dir, 'e.ts'), 'const a = 1;\nconst b = 2;\n');
    const r = await run('replace', { file_path: 'e.ts', old_string: 'const b = 2;', new_string: 'const b = 3;' });
    assert.deepEqual(r, {
      filePath: path.join(dir, 'e.ts'),
      oldString: 'const b = 2;',
      newString: 'const b = 3;',
      originalFile: 'const a = 1;\nconst b = 2;\n',
      structuredPatch: [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: [' const a = 1;', '-const b = 2;', '+const b = 3;'] }],
      userModified: false,
      replaceAll: false,
    });
  });

  test('Read: {type: "text", file: {filePath, content, numLines, startLine, totalLines}}', async () => {
    fs.writeFileSync(path.join(dir, 'r.txt'), 'l1\nl2\nl3\nl4\n');
    assert.deepEqual(await run('read_file', { file_path: 'r.txt', start_line: 2, end_line: 3 }), {
      type: 'text',
      file: { filePath: path.join(dir, 'r.txt'), content: 'l2\nl3', numLines: 2, startLine: 2, totalLines: 5 },
    });
  });

  test('Glob: {filenames, durationMs, numFiles, truncated}; Grep: content lines and file lists', async () => {
    fs.mkdirSync(path.join(dir, 'g'));
    fs.writeFileSync(path.join(dir, 'g', 'x.md'), 'alpha\nbeta\n');
    const g = await run('glob', { pattern: '*.md', dir_path: 'g' });
    assert.deepEqual(
      { ...g, durationMs: typeof g.durationMs },
      {
        filenames: [path.join(dir, 'g', 'x.md')],
        durationMs: 'number',
        numFiles: 1,
        truncated: false,
      },
    );
    const names = await run('search_file_content', { pattern: 'beta', dir_path: 'g', names_only: true });
    assert.deepEqual(names, { mode: 'files_with_matches', filenames: [path.join(dir, 'g', 'x.md')], numFiles: 1 });
    const lines = await run('search_file_content', { pattern: 'beta', dir_path: 'g', context: 1 });
    assert.deepEqual(lines, {
      mode: 'content',
      numFiles: 1,
      filenames: [path.join(dir, 'g', 'x.md')],
      content: `${path.join(dir, 'g', 'x.md')}-1-alpha\n${path.join(dir, 'g', 'x.md')}:2:beta`,
      numLines: 2,
    });
  });

  test('Bash: {stdout, stderr, interrupted, isImage}; stderr is merged into stdout as the agent runs commands', async () => {
    const r = await run('run_shell_command', { command: 'echo out; echo err >&2; exit 3' });
    assert.deepEqual(r, { stdout: 'out\nerr', stderr: '', interrupted: false, isImage: false, noOutputExpected: false });
  });

  test('Agent and tools without a shape: the text the model reads', () => {
    assert.deepEqual(claudeToolResponse('ask_agent', { agent: 'critic', prompt: 'p' }, { llmContent: 'fine', returnDisplay: '' }), {
      status: 'completed',
      prompt: 'p',
      agentType: 'critic',
      content: [{ type: 'text', text: 'fine' }],
    });
    assert.equal(
      claudeToolResponse('list_directory', { dir_path: '.' }, { llmContent: 'Directory listing', returnDisplay: '' }),
      'Directory listing',
    );
  });
});
