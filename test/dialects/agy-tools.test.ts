// The agent's tools under agy's names and argument keys, and back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agyToolNames, fromAgyToolCall, toAgyToolCall } from '../../src/dialects/agy/tools.js';

const cases: Array<[string, Record<string, unknown>, string, Record<string, unknown>]> = [
  ['run_shell_command', { command: 'ls', dir_path: 'src' }, 'run_command', { CommandLine: 'ls', Cwd: 'src' }],
  ['read_file', { file_path: '/a', start_line: 2, end_line: 9 }, 'view_file', { AbsolutePath: '/a', StartLine: 2, EndLine: 9 }],
  [
    'replace',
    { file_path: '/a', old_string: 'x', new_string: 'y' },
    'edit_file',
    { TargetFile: '/a', TargetContent: 'x', ReplacementContent: 'y' },
  ],
  ['write_file', { file_path: '/a', content: 'hi' }, 'write_to_file', { TargetFile: '/a', CodeContent: 'hi' }],
  ['glob', { pattern: '*.ts', dir_path: 'src' }, 'find_by_name', { Pattern: '*.ts', SearchDirectory: 'src' }],
  ['list_directory', { dir_path: 'src' }, 'list_dir', { DirectoryPath: 'src' }],
  [
    'search_file_content',
    { pattern: 'TODO', dir_path: 'src', include_pattern: '*.ts' },
    'grep_search',
    { Query: 'TODO', SearchPath: 'src', Includes: ['*.ts'], IsRegex: true },
  ],
  ['search_file_content', { pattern: 'a.b', fixed_strings: true }, 'grep_search', { Query: 'a.b', IsRegex: false }],
];

test('each agent tool as agy names it, and back to the same call', () => {
  for (const [tool, args, name, agyArgs] of cases) {
    assert.deepEqual(toAgyToolCall(tool, args), { name, args: agyArgs }, tool);
    assert.deepEqual(fromAgyToolCall(name, agyArgs), { name: tool, args }, name);
  }
});

test('replace_file_content (another agy name for edits) with one replacement chunk reads as replace', () => {
  assert.deepEqual(agyToolNames('replace'), ['edit_file', 'replace_file_content']);
  assert.deepEqual(
    fromAgyToolCall('replace_file_content', { TargetFile: '/a', ReplacementChunks: [{ TargetContent: 'x', ReplacementContent: 'y' }] }),
    {
      name: 'replace',
      args: { file_path: '/a', old_string: 'x', new_string: 'y' },
    },
  );
});

test('a tool with no agy counterpart keeps its name and arguments', () => {
  assert.deepEqual(toAgyToolCall('run_code', { code: '1' }), { name: 'run_code', args: { code: '1' } });
  assert.deepEqual(fromAgyToolCall('browser_open', { Url: 'x' }), { name: 'browser_open', args: { Url: 'x' } });
  assert.deepEqual(agyToolNames('run_code'), ['run_code']);
});
