import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { builtinTools, findTool, TOOL_ALIASES, type AgentTool, type ToolContext, type ToolResult } from '../../src/agent/tools/index.js';
import { compileGlob } from '../../src/agent/tools/pattern.js';
import { hasCommandSubstitution } from '../../src/agent/tools/shell.js';
import { alive } from '../helpers.js';

// ---------- helpers ----------

interface Space {
  /** The workspace (real path). */
  dir: string;
  /** A sibling folder outside the workspace. */
  outside: string;
}

const bases: string[] = [];
after(() => {
  for (const b of bases) fs.rmSync(b, { recursive: true, force: true });
});

function space(): Space {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-tools-')));
  bases.push(base);
  const dir = path.join(base, 'work');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(dir);
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'TOP SECRET\n');
  return { dir, outside };
}

function put(dir: string, rel: string, content: string | Buffer): string {
  const p = path.join(dir, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, content);
  return p;
}

function ctx(dir: string, extra: Partial<ToolContext> = {}): ToolContext {
  return { cwd: dir, signal: new AbortController().signal, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, ...extra };
}

const tools = new Map(builtinTools().map((t) => [t.name, t]));

/** Runs a tool the way the loop does: zod-parse the model's arguments, then run. */
async function call(name: string, args: Record<string, unknown>, c: ToolContext): Promise<ToolResult> {
  const tool = tools.get(name) as AgentTool | undefined;
  assert.ok(tool, `tool ${name} exists`);
  return tool.run(tool.parameters.parse(args), c);
}

function title(name: string, args: Record<string, unknown>): string {
  const tool = tools.get(name)!;
  return tool.title(tool.parameters.parse(args));
}

function assertError(r: ToolResult, type: string, includes?: string | RegExp): void {
  assert.ok(r.error, `expected an error, got: ${r.llmContent}`);
  assert.equal(r.error.type, type, r.llmContent);
  if (typeof includes === 'string') assert.ok(r.llmContent.includes(includes), `"${includes}" not in: ${r.llmContent}`);
  else if (includes) assert.match(r.llmContent, includes);
}

function assertOk(r: ToolResult): void {
  assert.equal(r.error, undefined, `unexpected error: ${r.llmContent}`);
}

/** Gone, or a zombie waiting to be reaped by init. */
const gone = (pid: number) => !alive(pid);

async function waitFor(cond: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return cond();
}

/** Every file name under `dir`, recursively. */
function allNames(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    out.push(e.name);
    if (e.isDirectory()) out.push(...allNames(path.join(dir, e.name)));
  }
  return out;
}

// ---------- registry ----------

describe('builtin tools', () => {
  test('have Gemini CLI names, kinds and argument names', () => {
    const byName = Object.fromEntries(builtinTools().map((t) => [t.name, t]));
    assert.deepEqual(Object.keys(byName).sort(), [
      'glob',
      'list_directory',
      'read_file',
      'replace',
      'run_code',
      'run_shell_command',
      'search_file_content',
      'write_file',
    ]);
    const keys = (n: string) => Object.keys(byName[n].parameters.shape).sort();
    assert.deepEqual(keys('read_file'), ['end_line', 'file_path', 'start_line']);
    assert.deepEqual(keys('write_file'), ['content', 'file_path']);
    assert.deepEqual(keys('replace'), ['allow_multiple', 'expected_replacements', 'file_path', 'instruction', 'new_string', 'old_string']);
    assert.deepEqual(keys('list_directory'), ['dir_path', 'file_filtering_options', 'ignore']);
    assert.deepEqual(keys('glob'), ['case_sensitive', 'dir_path', 'pattern', 'respect_gemini_ignore', 'respect_git_ignore']);
    assert.deepEqual(keys('search_file_content'), [
      'after',
      'before',
      'case_sensitive',
      'context',
      'dir_path',
      'exclude_pattern',
      'fixed_strings',
      'include_pattern',
      'max_matches_per_file',
      'names_only',
      'no_ignore',
      'pattern',
      'total_max_matches',
    ]);
    assert.deepEqual(keys('run_shell_command'), ['command', 'description', 'dir_path', 'is_background']);
    assert.equal(byName.read_file.kind, 'read');
    assert.equal(byName.glob.kind, 'read');
    assert.equal(byName.search_file_content.kind, 'read');
    assert.equal(byName.list_directory.kind, 'read');
    assert.equal(byName.write_file.kind, 'edit');
    assert.equal(byName.replace.kind, 'edit');
    assert.equal(byName.run_shell_command.kind, 'execute');
    for (const t of builtinTools()) assert.ok(t.description.length > 20, `${t.name} has a description`);
  });

  test('the name grep_search (Gemini CLI 0.61) finds search_file_content', () => {
    assert.equal(TOOL_ALIASES.grep_search, 'search_file_content');
    assert.equal(findTool(builtinTools(), 'grep_search')?.name, 'search_file_content');
    assert.equal(findTool(builtinTools(), 'read_file')?.name, 'read_file');
    assert.equal(findTool(builtinTools(), 'nope'), undefined);
  });

  test('titles are one line with control characters made visible', () => {
    assert.equal(title('write_file', { file_path: 'src/a.ts', content: 'x' }), 'WriteFile src/a.ts');
    assert.equal(title('run_shell_command', { command: 'ls -la' }), 'Shell ls -la');
    assert.equal(title('run_shell_command', { command: 'ls', dir_path: 'sub' }), 'Shell ls [in sub]');
    assert.equal(title('read_file', { file_path: 'a\u001b[2Kb' }), 'ReadFile a\\x1b[2Kb');
    const t = title('run_shell_command', { command: 'echo a\nrm -rf x' });
    assert.ok(!t.includes('\n'));
    assert.equal(t, 'Shell echo a\\nrm -rf x');
    assert.match(title('replace', { file_path: 'a.ts', old_string: 'foo', new_string: 'bar' }), /^Edit a\.ts: foo => bar$/);
    assert.equal(title('glob', { pattern: '**/*.ts' }), "FindFiles '**/*.ts'");
    assert.equal(title('search_file_content', { pattern: 'x', include_pattern: '*.ts' }), "SearchText 'x' in *.ts within ./");
    assert.equal(title('list_directory', { dir_path: 'src' }), 'ReadFolder src');
  });

  test('argument names follow the schema (zod rejects wrong types)', () => {
    assert.equal(tools.get('read_file')!.parameters.safeParse({ file_path: 1 }).success, false);
    assert.equal(tools.get('read_file')!.parameters.safeParse({ file_path: 'a', start_line: 0 }).success, false);
    assert.equal(
      tools.get('replace')!.parameters.safeParse({ file_path: 'a', old_string: 'x', new_string: 'y', expected_replacements: 0 }).success,
      false,
    );
  });
});

// ---------- workspace boundary ----------

describe('paths stay inside the workspace', () => {
  const s = space();
  put(s.dir, 'inside.txt', 'hello\n');
  fs.symlinkSync(path.join(s.outside, 'secret.txt'), path.join(s.dir, 'link-out.txt'));
  fs.symlinkSync(s.outside, path.join(s.dir, 'dir-out'));
  fs.symlinkSync(path.join(s.outside, 'created-by-link.txt'), path.join(s.dir, 'dangling-out.txt'));
  fs.symlinkSync(path.join(s.dir, 'inside.txt'), path.join(s.dir, 'link-in.txt'));
  put(s.dir, '.env', 'API_KEY=1\n');
  put(s.dir, '.git/config', '[core]\n');
  const c = ctx(s.dir);

  const attempts: Array<[string, string]> = [
    ['../outside/secret.txt', 'dot-dot'],
    [path.join(s.outside, 'secret.txt'), 'absolute outside'],
    ['link-out.txt', 'symlinked file'],
    ['dir-out/secret.txt', 'symlinked folder'],
    ['sub/../../outside/secret.txt', 'dot-dot through a missing folder'],
  ];
  for (const [p, what] of attempts) {
    test(`read_file refuses ${what}`, async () => {
      const r = await call('read_file', { file_path: p }, c);
      assertError(r, 'path_not_in_workspace', 'Path not in workspace');
      assert.ok(!r.llmContent.includes('TOP SECRET'));
      assert.equal(r.returnDisplay, 'Path not in workspace.');
    });
  }

  test('write_file through a dangling symlink or ../ does not create files outside', async () => {
    assertError(await call('write_file', { file_path: 'dangling-out.txt', content: 'x' }, c), 'path_not_in_workspace');
    assertError(await call('write_file', { file_path: '../outside/new.txt', content: 'x' }, c), 'path_not_in_workspace');
    assertError(await call('write_file', { file_path: 'dir-out/new.txt', content: 'x' }, c), 'path_not_in_workspace');
    assert.deepEqual(fs.readdirSync(s.outside), ['secret.txt']);
  });

  test('replace, list_directory, glob, search_file_content and the shell dir_path refuse escapes', async () => {
    assertError(await call('replace', { file_path: 'link-out.txt', old_string: 'TOP', new_string: 'x' }, c), 'path_not_in_workspace');
    assert.equal(fs.readFileSync(path.join(s.outside, 'secret.txt'), 'utf8'), 'TOP SECRET\n');
    assertError(await call('list_directory', { dir_path: '..' }, c), 'path_not_in_workspace');
    assertError(await call('list_directory', { dir_path: 'dir-out' }, c), 'path_not_in_workspace');
    assertError(await call('glob', { pattern: '*', dir_path: '../outside' }, c), 'path_not_in_workspace');
    assertError(await call('search_file_content', { pattern: 'SECRET', dir_path: s.outside }, c), 'path_not_in_workspace');
    assertError(await call('run_shell_command', { command: 'pwd', dir_path: '../outside' }, c), 'path_not_in_workspace');
  });

  test('symlinks that stay inside and absolute inside paths work', async () => {
    const r = await call('read_file', { file_path: 'link-in.txt' }, c);
    assertOk(r);
    assert.equal(r.llmContent, 'hello\n');
    assert.equal((await call('read_file', { file_path: path.join(s.dir, 'inside.txt') }, c)).llmContent, 'hello\n');
  });

  test('.env, .git and node_modules are off limits, as in Gemini CLI', async () => {
    assertError(await call('read_file', { file_path: '.env' }, c), 'path_not_in_workspace', 'protected location');
    assertError(await call('read_file', { file_path: '.git/config' }, c), 'path_not_in_workspace');
    assertError(await call('write_file', { file_path: 'node_modules/x.js', content: '1' }, c), 'path_not_in_workspace');
    assert.equal(fs.existsSync(path.join(s.dir, 'node_modules')), false);
  });

  test('a workspace reached through a symlink still works', async () => {
    const alias = path.join(path.dirname(s.dir), 'alias');
    fs.symlinkSync(s.dir, alias);
    const r = await call('read_file', { file_path: 'inside.txt' }, ctx(alias));
    assertOk(r);
    assert.equal(r.llmContent, 'hello\n');
    assertOk(await call('read_file', { file_path: path.join(alias, 'inside.txt') }, ctx(alias)));
    assertError(await call('read_file', { file_path: '../outside/secret.txt' }, ctx(alias)), 'path_not_in_workspace');
  });
});

describe('names with shell syntax are only ever data', () => {
  test('$(touch PWNED) and backticks in file names and patterns execute nothing', async () => {
    const s = space();
    const c = ctx(s.dir);
    const evil = '$(touch PWNED)`touch PWNED2`;touch PWNED3.txt';
    assertOk(await call('write_file', { file_path: evil, content: 'alpha $(touch PWNED4)\n' }, c));
    assert.ok(fs.existsSync(path.join(s.dir, evil)), 'the file exists under its literal name');
    assert.equal((await call('read_file', { file_path: evil }, c)).llmContent, 'alpha $(touch PWNED4)\n');
    assertOk(await call('replace', { file_path: evil, old_string: 'alpha', new_string: 'beta `touch PWNED5`' }, c));
    const ls = await call('list_directory', { dir_path: '.' }, c);
    assert.ok(ls.llmContent.includes(evil));
    const g = await call('glob', { pattern: '$(touch PWNED)*' }, c);
    assert.ok(g.llmContent.includes(path.join(s.dir, evil)), g.llmContent);
    assertOk(await call('glob', { pattern: '`touch PWNED6`/**' }, c));
    const gr = await call('search_file_content', { pattern: 'beta', include_pattern: '$(touch PWNED)`touch PWNED2`*' }, c);
    assert.ok(gr.llmContent.includes('Found 1 match'), gr.llmContent);
    await call('search_file_content', { pattern: '$(touch PWNED8)', dir_path: '.' }, c);
    await call('run_shell_command', { command: 'ls -la', dir_path: '.' }, c);
    const names = allNames(path.dirname(s.dir)).concat(fs.readdirSync(process.cwd()));
    assert.deepEqual(
      names.filter((n) => /^PWNED/.test(n)),
      [],
    );
  });
});

// ---------- read_file ----------

describe('read_file', () => {
  const s = space();
  const c = ctx(s.dir);

  test('returns the whole text with an empty display, like Gemini CLI', async () => {
    put(s.dir, 'a.txt', 'one\ntwo\nthree\n');
    const r = await call('read_file', { file_path: 'a.txt' }, c);
    assertOk(r);
    assert.equal(r.llmContent, 'one\ntwo\nthree\n');
    assert.equal(r.returnDisplay, '');
  });

  test('start_line and end_line select lines and say so', async () => {
    put(s.dir, 'b.txt', Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n'));
    const r = await call('read_file', { file_path: 'b.txt', start_line: 3, end_line: 5 }, c);
    assertOk(r);
    assert.ok(r.llmContent.endsWith('line 3\nline 4\nline 5'), r.llmContent);
    assert.ok(r.llmContent.includes('Status: Showing lines 3-5 of 10 total lines.'));
    assert.ok(r.llmContent.includes('start_line: 6'));
    assert.equal(r.returnDisplay, 'Read lines 3-5 of 10 from b.txt');
  });

  test('long files stop at 2000 lines and long lines are shortened', async () => {
    put(s.dir, 'long.txt', Array.from({ length: 2500 }, (_, i) => `L${i + 1}`).join('\n'));
    const r = await call('read_file', { file_path: 'long.txt' }, c);
    assert.ok(r.llmContent.includes('IMPORTANT: The file content has been truncated.'));
    assert.ok(r.llmContent.includes('Showing lines 1-2000 of 2500 total lines.'));
    assert.ok(r.llmContent.includes('\nL2000') && !r.llmContent.includes('L2001'));
    put(s.dir, 'wide.txt', 'x'.repeat(5000));
    const w = await call('read_file', { file_path: 'wide.txt' }, c);
    assert.ok(w.llmContent.includes('x'.repeat(2000) + '... [truncated]'));
    assert.equal(w.returnDisplay, 'Read all 1 lines from wide.txt (some lines were shortened)');
  });

  test('CRLF lines and a UTF-8 BOM are read as plain text', async () => {
    put(s.dir, 'crlf.txt', Buffer.from('\ufeffa\r\nb\r\n', 'utf8'));
    assert.equal((await call('read_file', { file_path: 'crlf.txt' }, c)).llmContent, 'a\nb\n');
  });

  test('binary files are reported, not dumped', async () => {
    put(s.dir, 'bin.dat', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2, 3]));
    const r = await call('read_file', { file_path: 'bin.dat' }, c);
    assertOk(r);
    assert.equal(r.llmContent, 'Cannot display content of binary file: bin.dat');
    assert.equal(r.returnDisplay, 'Skipped binary file: bin.dat');
  });

  test('failures: missing file, folder, bad range', async () => {
    assertError(await call('read_file', { file_path: 'nope.txt' }, c), 'file_not_found', 'no file was found');
    fs.mkdirSync(path.join(s.dir, 'folder'), { recursive: true });
    assertError(await call('read_file', { file_path: 'folder' }, c), 'target_is_directory');
    assertError(
      await call('read_file', { file_path: 'a.txt', start_line: 3, end_line: 2 }, c),
      'invalid_tool_params',
      'start_line cannot be greater than end_line',
    );
    assertError(await call('read_file', { file_path: 'a.txt', start_line: 50 }, c), 'invalid_tool_params', 'past the end');
    assertError(await call('read_file', { file_path: '  ' }, c), 'invalid_tool_params');
  });
});

// ---------- write_file ----------

describe('write_file', () => {
  const s = space();
  const c = ctx(s.dir);

  test('creates a file and its folders', async () => {
    const r = await call('write_file', { file_path: 'src/deep/new.ts', content: 'export const a = 1;\n' }, c);
    assertOk(r);
    const file = path.join(s.dir, 'src/deep/new.ts');
    assert.equal(fs.readFileSync(file, 'utf8'), 'export const a = 1;\n');
    assert.ok(r.llmContent.startsWith(`Successfully created and wrote to new file: ${file}.`));
    assert.ok(r.llmContent.includes('export const a = 1;'));
    // What Gemini CLI shows of a write, and AfterTool hooks read as returnDisplay.
    assert.deepEqual(r.returnDisplay, {
      fileDiff:
        'Index: new.ts\n===================================================================\n--- new.ts\tOriginal\n+++ new.ts\tWritten\n@@ -0,0 +1,1 @@\n+export const a = 1;\n',
      fileName: 'new.ts',
      filePath: file,
      originalContent: '',
      newContent: 'export const a = 1;\n',
      diffStat: {
        model_added_lines: 1,
        model_removed_lines: 0,
        model_added_chars: 19,
        model_removed_chars: 0,
        user_added_lines: 0,
        user_removed_lines: 0,
        user_added_chars: 0,
        user_removed_chars: 0,
      },
      isNewFile: true,
      isBuildFile: false,
    });
  });

  test('a build file is marked as one', async () => {
    const r = await call('write_file', { file_path: 'pkg/package.json', content: '{}\n' }, c);
    assertOk(r);
    assert.equal(typeof r.returnDisplay === 'object' && r.returnDisplay.isBuildFile, true);
    const mk = await call('write_file', { file_path: 'rules.mk', content: 'all:\n' }, c);
    assert.equal(typeof mk.returnDisplay === 'object' && mk.returnDisplay.isBuildFile, true);
  });

  test('overwrites a file, keeps CRLF line endings and shows a diff', async () => {
    put(s.dir, 'win.txt', 'a\r\nb\r\n');
    const r = await call('write_file', { file_path: 'win.txt', content: 'a\nc\n' }, c);
    assertOk(r);
    assert.equal(fs.readFileSync(path.join(s.dir, 'win.txt'), 'utf8'), 'a\r\nc\r\n');
    assert.ok(r.llmContent.startsWith('Successfully overwrote file:'));
    const d = r.returnDisplay as Exclude<typeof r.returnDisplay, string>;
    assert.ok(d.fileDiff.includes('-b') && d.fileDiff.includes('+c'), d.fileDiff);
    assert.equal(d.isNewFile, false);
    assert.equal(d.originalContent, 'a\r\nb\r\n');
    assert.equal(d.newContent, 'a\nc\n');
    // Against the file as it was (CRLF), every line of the LF content given is new.
    assert.deepEqual([d.diffStat.model_added_lines, d.diffStat.model_removed_lines], [2, 2]);
  });

  test('failures: a folder, an omission placeholder', async () => {
    fs.mkdirSync(path.join(s.dir, 'adir'));
    assertError(await call('write_file', { file_path: 'adir', content: 'x' }, c), 'target_is_directory', 'Path is a directory');
    put(s.dir, 'keep.ts', 'original\n');
    const r = await call('write_file', { file_path: 'keep.ts', content: 'class A {\n  // rest of methods ...\n}\n' }, c);
    assertError(r, 'invalid_tool_params', 'omission placeholder');
    assert.equal(fs.readFileSync(path.join(s.dir, 'keep.ts'), 'utf8'), 'original\n');
  });
});

// ---------- replace ----------

describe('replace', () => {
  const s = space();
  const c = ctx(s.dir);
  const read = (rel: string) => fs.readFileSync(path.join(s.dir, rel), 'utf8');

  test('replaces exactly one occurrence', async () => {
    put(s.dir, 'a.ts', 'const a = 1;\nconst b = 2;\n');
    const r = await call(
      'replace',
      { file_path: 'a.ts', instruction: 'bump b', old_string: 'const b = 2;', new_string: 'const b = 3;' },
      c,
    );
    assertOk(r);
    assert.equal(read('a.ts'), 'const a = 1;\nconst b = 3;\n');
    assert.ok(r.llmContent.startsWith(`Successfully modified file: ${path.join(s.dir, 'a.ts')} (1 replacements).`));
    assert.ok(r.llmContent.includes('Here is the updated code:\nconst a = 1;\nconst b = 3;'));
    const d = r.returnDisplay as Exclude<typeof r.returnDisplay, string>;
    assert.ok(d.fileDiff.includes('-const b = 2;\n+const b = 3;'), d.fileDiff);
    assert.ok(d.fileDiff.includes('--- a.ts\tCurrent\n+++ a.ts\tProposed'), d.fileDiff);
    assert.deepEqual(
      { originalContent: d.originalContent, newContent: d.newContent, isNewFile: d.isNewFile, fileName: d.fileName },
      { originalContent: 'const a = 1;\nconst b = 2;\n', newContent: 'const a = 1;\nconst b = 3;\n', isNewFile: false, fileName: 'a.ts' },
    );
    assert.deepEqual(
      [d.diffStat.model_added_lines, d.diffStat.model_removed_lines, d.diffStat.model_added_chars, d.diffStat.model_removed_chars],
      [1, 1, 12, 12],
    );
  });

  test('old_string not found leaves the file alone', async () => {
    put(s.dir, 'b.ts', 'hello\n');
    const r = await call('replace', { file_path: 'b.ts', old_string: 'goodbye', new_string: 'x' }, c);
    assertError(r, 'edit_no_occurrence_found', "Could not find an exact match for 'old_string'");
    assert.equal(r.returnDisplay, "Error: Could not find an exact match for old_string in 'b.ts'.");
    assert.equal(read('b.ts'), 'hello\n');
  });

  test('several occurrences need allow_multiple', async () => {
    put(s.dir, 'c.ts', 'x\nx\nx\n');
    const r = await call('replace', { file_path: 'c.ts', old_string: 'x', new_string: 'y' }, c);
    assertError(r, 'edit_expected_occurrence_mismatch', 'Expected 1 occurrence but found 3');
    assert.equal(read('c.ts'), 'x\nx\nx\n');
    const ok = await call('replace', { file_path: 'c.ts', old_string: 'x', new_string: 'y', allow_multiple: true }, c);
    assertOk(ok);
    assert.ok(ok.llmContent.includes('(3 replacements)'));
    assert.equal(read('c.ts'), 'y\ny\ny\n');
  });

  test('expected_replacements must match the number found', async () => {
    put(s.dir, 'd.ts', 'k k k\n');
    const r = await call('replace', { file_path: 'd.ts', old_string: 'k', new_string: 'v', expected_replacements: 2 }, c);
    assertError(r, 'edit_expected_occurrence_mismatch', 'Expected 2 occurrences but found 3');
    assert.equal(r.returnDisplay, 'Error: Failed to edit, expected 2 occurrences but found 3.');
    assert.equal(read('d.ts'), 'k k k\n');
    const under = await call('replace', { file_path: 'd.ts', old_string: 'k', new_string: 'v', expected_replacements: 4 }, c);
    assertError(under, 'edit_expected_occurrence_mismatch', 'but found 3');
    assertOk(await call('replace', { file_path: 'd.ts', old_string: 'k', new_string: 'v', expected_replacements: 3 }, c));
    assert.equal(read('d.ts'), 'v v v\n');
  });

  test('an empty old_string creates a new file but not over an existing one', async () => {
    const r = await call('replace', { file_path: 'new/e.ts', old_string: '', new_string: 'fresh\n' }, c);
    assertOk(r);
    const d = r.returnDisplay as Exclude<typeof r.returnDisplay, string>;
    assert.deepEqual(
      { originalContent: d.originalContent, newContent: d.newContent, isNewFile: d.isNewFile },
      { originalContent: null, newContent: 'fresh\n', isNewFile: true },
    );
    assert.equal(read('new/e.ts'), 'fresh\n');
    assertError(
      await call('replace', { file_path: 'new/e.ts', old_string: '', new_string: 'again' }, c),
      'attempt_to_create_existing_file',
    );
    assert.equal(read('new/e.ts'), 'fresh\n');
  });

  test('missing file, identical strings and placeholders fail', async () => {
    assertError(await call('replace', { file_path: 'missing.ts', old_string: 'a', new_string: 'b' }, c), 'file_not_found');
    assert.equal(fs.existsSync(path.join(s.dir, 'missing.ts')), false);
    put(s.dir, 'f.ts', 'same\n');
    assertError(await call('replace', { file_path: 'f.ts', old_string: 'same', new_string: 'same' }, c), 'edit_no_change');
    assertError(
      await call('replace', { file_path: 'f.ts', old_string: 'same', new_string: '// rest of code ...' }, c),
      'invalid_tool_params',
    );
    assert.equal(read('f.ts'), 'same\n');
  });

  test('replacement text is literal ($& and $1 stay as written)', async () => {
    put(s.dir, 'g.ts', 'price\n');
    assertOk(await call('replace', { file_path: 'g.ts', old_string: 'price', new_string: "'$&' costs $1 $$" }, c));
    assert.equal(read('g.ts'), "'$&' costs $1 $$\n");
  });

  test('CRLF files keep CRLF; whitespace-insensitive lines match with indentation kept', async () => {
    put(s.dir, 'h.ts', 'a\r\nb\r\nc\r\n');
    assertOk(await call('replace', { file_path: 'h.ts', old_string: 'b\nc', new_string: 'B\nC' }, c));
    assert.equal(read('h.ts'), 'a\r\nB\r\nC\r\n');
    put(s.dir, 'i.ts', 'function f() {\n    if (x) {\n        go();\n    }\n}\n');
    const r = await call('replace', { file_path: 'i.ts', old_string: 'if (x) {\n  go();\n}', new_string: 'if (y) {\n  stop();\n}' }, c);
    assertOk(r);
    assert.equal(read('i.ts'), 'function f() {\n    if (y) {\n      stop();\n    }\n}\n');
  });
});

// ---------- list_directory ----------

describe('list_directory', () => {
  test('lists folders first, then files with sizes', async () => {
    const s = space();
    put(s.dir, 'b.txt', '12345');
    put(s.dir, 'a.txt', '1');
    put(s.dir, 'zdir/x', '');
    put(s.dir, 'adir/x', '');
    const r = await call('list_directory', { dir_path: '.' }, ctx(s.dir));
    assertOk(r);
    assert.equal(r.llmContent, `Directory listing for ${s.dir}:\n[DIR] adir\n[DIR] zdir\na.txt (1 bytes)\nb.txt (5 bytes)`);
    assert.equal(r.returnDisplay, 'Found 4 item(s).');
  });

  test('ignore patterns, .gitignore and hidden protected entries', async () => {
    const s = space();
    fs.mkdirSync(path.join(s.dir, '.git'));
    put(s.dir, '.gitignore', 'dist/\n*.log\n');
    put(s.dir, 'dist/out.js', '');
    put(s.dir, 'debug.log', '');
    put(s.dir, 'keep.ts', '');
    put(s.dir, 'skip.tmp', '');
    put(s.dir, '.env', 'SECRET=1');
    put(s.dir, 'node_modules/x/index.js', '');
    fs.symlinkSync(path.join(s.outside, 'secret.txt'), path.join(s.dir, 'out-link'));
    const c = ctx(s.dir);
    const r = await call('list_directory', { dir_path: '.', ignore: ['*.tmp'] }, c);
    assertOk(r);
    assert.equal(r.llmContent, `Directory listing for ${s.dir}:\n.gitignore (12 bytes)\nkeep.ts (0 bytes)\n\n(2 ignored)`);
    assert.equal(r.returnDisplay, 'Found 2 item(s). (2 ignored)');
    const all = await call('list_directory', { dir_path: '.', file_filtering_options: { respect_git_ignore: false } }, c);
    assert.ok(all.llmContent.includes('[DIR] dist') && all.llmContent.includes('debug.log') && all.llmContent.includes('skip.tmp'));
    assert.ok(!all.llmContent.includes('.env') && !all.llmContent.includes('node_modules') && !all.llmContent.includes('out-link'));
  });

  test('failures: empty, missing, not a folder', async () => {
    const s = space();
    fs.mkdirSync(path.join(s.dir, 'empty'));
    put(s.dir, 'file.txt', 'x');
    const c = ctx(s.dir);
    const e = await call('list_directory', { dir_path: 'empty' }, c);
    assertOk(e);
    assert.equal(e.llmContent, `Directory ${path.join(s.dir, 'empty')} is empty.`);
    assertError(await call('list_directory', { dir_path: 'missing' }, c), 'file_not_found', 'Directory not found');
    assertError(await call('list_directory', { dir_path: 'file.txt' }, c), 'path_is_not_a_directory');
  });
});

// ---------- glob ----------

describe('glob', () => {
  const s = space();
  put(s.dir, 'top.ts', '');
  put(s.dir, 'README.md', '');
  put(s.dir, 'notes.txt', '');
  put(s.dir, 'src/a.ts', '');
  put(s.dir, 'src/b.tsx', '');
  put(s.dir, 'src/deep/c.ts', '');
  put(s.dir, 'src/deep/Upper.TS', '');
  put(s.dir, 'app/[id].tsx', '');
  put(s.dir, 'node_modules/pkg/index.ts', '');
  put(s.dir, '.git/hooks/x.ts', '');
  fs.symlinkSync(path.join(s.outside, 'secret.txt'), path.join(s.dir, 'src/out.ts'));
  const c = ctx(s.dir);
  const files = (r: ToolResult) =>
    r.llmContent
      .split('\n')
      .slice(1)
      .filter((l) => l.startsWith('/'))
      .map((l) => path.relative(s.dir, l))
      .sort();

  test('** crosses folders; node_modules, .git and links outside are skipped', async () => {
    const r = await call('glob', { pattern: '**/*.ts' }, c);
    assertOk(r);
    assert.deepEqual(files(r), ['src/a.ts', 'src/deep/Upper.TS', 'src/deep/c.ts', 'top.ts']);
    assert.ok(r.llmContent.startsWith(`Found 4 file(s) matching "**/*.ts" within ${s.dir}, sorted by modification time (newest first):`));
    assert.equal(r.returnDisplay, 'Found 4 matching file(s)');
  });

  test('* stays in one folder; braces, ? and classes work', async () => {
    assert.deepEqual(files(await call('glob', { pattern: '*.ts' }, c)), ['top.ts']);
    assert.deepEqual(files(await call('glob', { pattern: '*.{md,txt}' }, c)), ['README.md', 'notes.txt']);
    assert.deepEqual(files(await call('glob', { pattern: 'src/?.ts*' }, c)), ['src/a.ts', 'src/b.tsx']);
    assert.deepEqual(files(await call('glob', { pattern: 'src/[b-z].*' }, c)), ['src/b.tsx']);
    assert.deepEqual(files(await call('glob', { pattern: 'src/**' }, c)), ['src/a.ts', 'src/b.tsx', 'src/deep/Upper.TS', 'src/deep/c.ts']);
    assert.deepEqual(files(await call('glob', { pattern: '*.ts', dir_path: 'src/deep' }, c)), ['src/deep/Upper.TS', 'src/deep/c.ts']);
  });

  test('case-insensitive by default, case_sensitive narrows', async () => {
    assert.deepEqual(files(await call('glob', { pattern: 'src/deep/*.ts', case_sensitive: true }, c)), ['src/deep/c.ts']);
    assert.deepEqual(files(await call('glob', { pattern: 'readme.MD' }, c)), ['README.md']);
  });

  test('a pattern naming an existing file literally finds it', async () => {
    assert.deepEqual(files(await call('glob', { pattern: 'app/[id].tsx' }, c)), ['app/[id].tsx']);
  });

  test('recently modified files come first', async () => {
    const old = new Date(Date.now() - 3 * 24 * 3600 * 1000);
    for (const f of ['top.ts', 'src/a.ts', 'src/deep/c.ts', 'src/deep/Upper.TS']) fs.utimesSync(path.join(s.dir, f), old, old);
    fs.utimesSync(path.join(s.dir, 'src/deep/c.ts'), new Date(), new Date());
    const r = await call('glob', { pattern: '**/*.ts' }, c);
    const order = r.llmContent
      .split('\n')
      .slice(1)
      .map((l) => path.relative(s.dir, l));
    assert.equal(order[0], 'src/deep/c.ts');
    assert.deepEqual(order.slice(1), ['src/a.ts', 'src/deep/Upper.TS', 'top.ts']);
  });

  test('no match, bad input, and patterns that try to leave', async () => {
    const r = await call('glob', { pattern: '**/*.java' }, c);
    assertOk(r);
    assert.equal(r.llmContent, `No files found matching pattern "**/*.java" within ${s.dir}`);
    assert.equal(r.returnDisplay, 'No files found');
    assertError(await call('glob', { pattern: '  ' }, c), 'invalid_tool_params');
    assertError(await call('glob', { pattern: '*', dir_path: 'nope' }, c), 'invalid_tool_params', 'does not exist');
    assertError(await call('glob', { pattern: path.join(s.outside, '*') }, c), 'path_not_in_workspace');
    assert.equal((await call('glob', { pattern: '../outside/*' }, c)).returnDisplay, 'No files found');
    assert.deepEqual(files(await call('glob', { pattern: path.join(s.dir, 'src', '*.ts') }, c)), ['src/a.ts']);
  });

  test('.gitignore is respected in git repositories unless turned off', async () => {
    const g = space();
    fs.mkdirSync(path.join(g.dir, '.git'));
    put(g.dir, '.gitignore', 'gen/\n');
    put(g.dir, 'gen/x.ts', '');
    put(g.dir, 'sub/.gitignore', 'local.ts\n');
    put(g.dir, 'sub/local.ts', '');
    put(g.dir, 'sub/kept.ts', '');
    put(g.dir, 'y.ts', '');
    const gc = ctx(g.dir);
    const r = await call('glob', { pattern: '**/*.ts' }, gc);
    assert.deepEqual(
      r.llmContent
        .split('\n')
        .slice(1)
        .map((l) => path.relative(g.dir, l))
        .sort(),
      ['sub/kept.ts', 'y.ts'],
    );
    assert.ok(r.llmContent.includes('(2 additional files were ignored)'), r.llmContent);
    const all = await call('glob', { pattern: '**/*.ts', respect_git_ignore: false }, gc);
    assert.equal(all.returnDisplay, 'Found 4 matching file(s)');
  });
});

describe('glob patterns (matcher)', () => {
  test('matches like minimatch for the common forms', () => {
    const yes: Array<[string, string]> = [
      ['**/*.ts', 'a.ts'],
      ['**/*.ts', 'x/y/a.ts'],
      ['src/**/b.ts', 'src/b.ts'],
      ['*.{ts,tsx}', 'a.tsx'],
      ['f?o', 'foo'],
      ['[!a-c]x', 'dx'],
      ['file{1..3}.txt', 'file2.txt'],
      ['*', '.hidden'],
      ['a\\*b', 'a*b'],
      ['{a}', '{a}'],
      ['[[:digit:]]z', '7z'],
    ];
    const no: Array<[string, string]> = [
      ['*.ts', 'src/a.ts'],
      ['f?o', 'f/o'],
      ['[!a-c]x', 'bx'],
      ['file{1..3}.txt', 'file4.txt'],
      ['src/**', 'src'],
      ['a\\*b', 'axb'],
      ['*.{ts,tsx}', 'a.js'],
    ];
    for (const [g, p] of yes) assert.equal(compileGlob(g)(p), true, `${g} should match ${p}`);
    for (const [g, p] of no) assert.equal(compileGlob(g)(p), false, `${g} should not match ${p}`);
  });

  test('hostile patterns stay fast and huge brace expansions are refused', () => {
    const start = Date.now();
    assert.equal(compileGlob('*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b')('a'.repeat(20000)), false);
    assert.ok(Date.now() - start < 2000);
    assert.throws(() => compileGlob('{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}'), /more than/);
  });
});

// ---------- grep_search ----------

describe('grep_search', () => {
  const s = space();
  put(s.dir, 'src/a.ts', 'import x from "y";\nfunction Hello() {}\nconst hello = 1;\n');
  put(s.dir, 'src/b.js', 'hello world\nbye\n');
  put(s.dir, 'docs/readme.md', 'Say HELLO\n');
  put(s.dir, 'node_modules/pkg/index.js', 'hello from vendor\n');
  put(s.dir, 'dist/bundle.js', 'hello bundled\n');
  put(s.dir, 'app.log', 'hello log\n');
  put(s.dir, '.env', 'HELLO_TOKEN=secret\n');
  put(s.dir, 'bin.dat', Buffer.from('hello\0\0\0binary'));
  fs.symlinkSync(path.join(s.outside, 'secret.txt'), path.join(s.dir, 'leak.txt'));
  const c = ctx(s.dir);

  test('finds lines case-insensitively, grouped by file', async () => {
    const r = await call('search_file_content', { pattern: 'hello', before: 0 }, c);
    assertOk(r);
    assert.equal(
      r.llmContent,
      'Found 4 matches for pattern "hello" in path ".":\n---\nFile: docs/readme.md\nL1: Say HELLO\n---\nFile: src/a.ts\nL2: function Hello() {}\nL3: const hello = 1;\n---\nFile: src/b.js\nL1: hello world\n---',
    );
    assert.equal(r.returnDisplay, 'Found 4 matches');
  });

  test('skips vendored, build, log, secret, binary files and links outside; no_ignore widens', async () => {
    const r = await call('search_file_content', { pattern: 'hello|SECRET', names_only: true }, c);
    assert.equal(r.llmContent, 'Found 3 files with matches for pattern "hello|SECRET" in path ".":\ndocs/readme.md\nsrc/a.ts\nsrc/b.js');
    assert.equal(r.returnDisplay, 'Found 3 files');
    const wide = await call('search_file_content', { pattern: 'hello|SECRET', names_only: true, no_ignore: true }, c);
    assert.ok(wide.llmContent.includes('dist/bundle.js') && wide.llmContent.includes('app.log'));
    assert.ok(
      !wide.llmContent.includes('node_modules') &&
        !wide.llmContent.includes('.env') &&
        !wide.llmContent.includes('leak') &&
        !wide.llmContent.includes('bin.dat'),
    );
  });

  test('case_sensitive, fixed_strings, include_pattern, exclude_pattern', async () => {
    const cs = await call('search_file_content', { pattern: 'Hello', case_sensitive: true, names_only: true }, c);
    assert.ok(cs.llmContent.startsWith('Found 1 files') && cs.llmContent.endsWith('src/a.ts'), cs.llmContent);
    put(s.dir, 'fixed.txt', 'call a.b(c)\ncall axb(c)\n');
    const fx = await call('search_file_content', { pattern: 'a.b(', fixed_strings: true, context: 0 }, c);
    assert.ok(fx.llmContent.startsWith('Found 1 match'), fx.llmContent);
    assert.ok(fx.llmContent.includes('L1: call a.b(c)'));
    const inc = await call('search_file_content', { pattern: 'hello', include_pattern: '*.{ts,md}', names_only: true }, c);
    assert.ok(
      inc.llmContent.includes('(filter: "*.{ts,md}")') && !inc.llmContent.includes('b.js') && inc.llmContent.includes('src/a.ts'),
      inc.llmContent,
    );
    const incDir = await call('search_file_content', { pattern: 'hello', include_pattern: 'src/**', names_only: true }, c);
    assert.ok(!incDir.llmContent.includes('readme') && incDir.llmContent.includes('src/b.js'));
    const ex = await call('search_file_content', { pattern: 'hello', exclude_pattern: 'const', dir_path: 'src', context: 0 }, c);
    assert.ok(ex.llmContent.includes('L2: function Hello') && !ex.llmContent.includes('const hello'), ex.llmContent);
    assert.ok(ex.llmContent.includes('in path "src"'));
  });

  test('limits: per file, total, and context lines', async () => {
    put(s.dir, 'many/m.txt', Array.from({ length: 30 }, (_, i) => `match ${i + 1}`).join('\n'));
    const per = await call('search_file_content', { pattern: 'match', dir_path: 'many', max_matches_per_file: 2, context: 0 }, c);
    assert.ok(per.llmContent.startsWith('Found 2 matches'), per.llmContent);
    const tot = await call('search_file_content', { pattern: 'match \\d+', dir_path: 'many', total_max_matches: 5 }, c);
    assert.ok(tot.llmContent.includes('Found 5 matches') && tot.llmContent.includes('(results limited to 5 matches for performance)'));
    assert.equal(tot.returnDisplay, 'Found 5 matches (limited)');
    const ctxLines = await call('search_file_content', { pattern: '^match 10$', dir_path: 'many', context: 1 }, c);
    assert.ok(ctxLines.llmContent.includes('L9- match 9\nL10: match 10\nL11- match 11\n---'), ctxLines.llmContent);
  });

  test('a single match comes with surrounding lines', async () => {
    put(s.dir, 'ctx/one.txt', Array.from({ length: 120 }, (_, i) => (i === 59 ? 'needle' : `row ${i + 1}`)).join('\n'));
    const r = await call('search_file_content', { pattern: 'needle', dir_path: 'ctx' }, c);
    assert.ok(r.llmContent.includes('L60: needle'));
    assert.ok(r.llmContent.includes('L10- row 10') && !r.llmContent.includes('L9- row 9'), 'fifty lines before');
    assert.ok(r.llmContent.includes('L110- row 110') && !r.llmContent.includes('L111-'), 'fifty lines after');
  });

  test('a file as dir_path searches that file', async () => {
    const r = await call('search_file_content', { pattern: 'bye', dir_path: 'src/b.js' }, c);
    assert.ok(r.llmContent.includes('File: b.js') && r.llmContent.includes('L2: bye'), r.llmContent);
  });

  test('no match, invalid regex, missing path', async () => {
    const none = await call('search_file_content', { pattern: 'zebra', include_pattern: '*.ts' }, c);
    assertOk(none);
    assert.equal(none.llmContent, 'No matches found for pattern "zebra" in path "." (filter: "*.ts").');
    assert.equal(none.returnDisplay, 'No matches found');
    assertError(
      await call('search_file_content', { pattern: 'foo(' }, c),
      'invalid_tool_params',
      'Invalid regular expression pattern provided: foo(.',
    );
    assertError(await call('search_file_content', { pattern: '(?=look)ahead' }, c), 'invalid_tool_params', 'Invalid regular expression');
    assertError(
      await call('search_file_content', { pattern: 'x', exclude_pattern: '[' }, c),
      'invalid_tool_params',
      'Invalid exclude regular expression',
    );
    assertError(await call('search_file_content', { pattern: 'x', dir_path: 'nope' }, c), 'file_not_found', 'Path does not exist');
  });

  // Backtracking would take hours on this file; a linear-time matcher ends well within the test's time-out.
  test('a catastrophic pattern returns', { timeout: 60_000 }, async () => {
    const g = space();
    put(g.dir, 'evil.txt', 'a'.repeat(50_000) + '!\n' + ('a'.repeat(30) + 'X\n').repeat(2000));
    const r = await call('search_file_content', { pattern: '(a+)+$', names_only: true }, ctx(g.dir));
    const r2 = await call('search_file_content', { pattern: '(a|aa)*b', names_only: true }, ctx(g.dir));
    assertOk(r);
    assert.equal(r.llmContent, 'No matches found for pattern "(a+)+$" in path ".".');
    assert.equal(r2.returnDisplay, 'No matches found');
  });
});

// ---------- run_shell_command ----------

describe('run_shell_command', () => {
  const s = space();
  const c = ctx(s.dir);

  test('captures stdout and stderr, reports the process group', async () => {
    const r = await call('run_shell_command', { command: 'echo out; echo err >&2' }, c);
    assertOk(r);
    assert.match(r.llmContent, /^<untrusted_context>\nOutput: out\nerr\nProcess Group PGID: \d+\n<\/untrusted_context>$/);
    assert.equal(r.returnDisplay, 'out\nerr');
  });

  test('non-zero exit codes are reported, not thrown', async () => {
    const r = await call('run_shell_command', { command: 'echo failing; exit 3' }, c);
    assert.ok(r.llmContent.includes('Output: failing\nExit Code: 3\n'), r.llmContent);
    const quiet = await call('run_shell_command', { command: 'exit 7' }, c);
    assert.ok(quiet.llmContent.includes('Output: (empty)\nExit Code: 7'));
    assert.equal(quiet.returnDisplay, 'Command exited with code: 7');
  });

  test('a signal that kills the shell is reported', async () => {
    const r = await call('run_shell_command', { command: 'kill -TERM $$' }, c);
    assert.ok(r.llmContent.includes('Signal: 15'), r.llmContent);
    assert.equal(r.returnDisplay, 'Command terminated by signal: SIGTERM');
  });

  test('runs in the workspace or dir_path, with ctx.env and stdin closed', async () => {
    fs.mkdirSync(path.join(s.dir, 'sub'), { recursive: true });
    assert.ok((await call('run_shell_command', { command: 'pwd' }, c)).llmContent.includes(`Output: ${s.dir}\n`));
    assert.ok(
      (await call('run_shell_command', { command: 'pwd', dir_path: 'sub' }, c)).llmContent.includes(`Output: ${path.join(s.dir, 'sub')}\n`),
    );
    const env = await call(
      'run_shell_command',
      { command: 'echo "[$HOOKLINE_T1][$HOME_SHOULD_BE_UNSET]"' },
      ctx(s.dir, { env: { PATH: process.env.PATH!, HOOKLINE_T1: 'yes' } }),
    );
    assert.ok(env.llmContent.includes('Output: [yes][]'), env.llmContent);
    const start = Date.now();
    const stdin = await call('run_shell_command', { command: 'cat; echo done' }, c);
    assert.ok(stdin.llmContent.includes('Output: done'));
    assert.ok(Date.now() - start < 5000);
  });

  test('bad dir_path, empty command, background requests', async () => {
    assertError(await call('run_shell_command', { command: 'ls', dir_path: 'missing' }, c), 'file_not_found');
    put(s.dir, 'plain.txt', '');
    assertError(await call('run_shell_command', { command: 'ls', dir_path: 'plain.txt' }, c), 'path_is_not_a_directory');
    assertError(await call('run_shell_command', { command: '   ' }, c), 'invalid_tool_params', 'Command cannot be empty.');
    assertError(
      await call('run_shell_command', { command: 'sleep 1', is_background: true }, c),
      'invalid_tool_params',
      'Background execution is not supported',
    );
  });

  test('command substitution is refused like Gemini CLI, quoted text is fine', async () => {
    const r = await call('run_shell_command', { command: 'echo $(touch SUBST1) `touch SUBST2` <(true)' }, c);
    assertError(r, 'policy_violation', 'command substitution');
    assert.equal(r.returnDisplay, 'Blocked: command substitution detected in shell command.');
    assert.equal(fs.existsSync(path.join(s.dir, 'SUBST1')), false);
    assert.equal(fs.existsSync(path.join(s.dir, 'SUBST2')), false);
    const q = await call('run_shell_command', { command: "echo '$(not run)' \\`x\\`" }, c);
    assert.ok(q.llmContent.includes('Output: $(not run) `x`'), q.llmContent);
    assert.equal(hasCommandSubstitution('echo "$(x)"'), true);
    assert.equal(hasCommandSubstitution('echo "\\$(x)"'), false);
    assert.equal(hasCommandSubstitution('cat > out.txt'), false);
  });

  test('background jobs are listed and stopped when the command ends', async () => {
    const r = await call('run_shell_command', { command: 'sleep 300 & echo $! > bg.pid; echo started' }, c);
    const pid = Number(fs.readFileSync(path.join(s.dir, 'bg.pid'), 'utf8'));
    assert.ok(r.llmContent.includes(`Background PIDs: ${pid}`), r.llmContent);
    assert.ok(await waitFor(() => gone(pid)), `background job ${pid} still running`);
  });

  test('a background job that left the group with setsid is stopped by pid', async () => {
    const r = await call('run_shell_command', { command: 'setsid sleep 300 & echo $! > setsid.pid' }, c);
    const pid = Number(fs.readFileSync(path.join(s.dir, 'setsid.pid'), 'utf8'));
    assert.ok(r.llmContent.includes(`Background PIDs: ${pid}`), r.llmContent);
    assert.ok(await waitFor(() => gone(pid)), `setsid job ${pid} still running`);
  });

  // Waiting for the daemon (20 s) would show as this test's time-out.
  test('a daemon holding the output pipe does not hang the call', { timeout: 15_000 }, async () => {
    const r = await call('run_shell_command', { command: "(setsid sh -c 'echo $$ > daemon.pid; exec sleep 20' &); echo parent done" }, c);
    // The daemon writes its pid on its own schedule (under load, after the call returned).
    const pidFile = path.join(s.dir, 'daemon.pid');
    await waitFor(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim() !== '', 2000);
    const pid = fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8')) : undefined;
    try {
      // Nothing outlives the command: the escaped daemon is found and ended too (maybe before it wrote its pid).
      if (pid) assert.ok(await waitFor(() => gone(pid)), `daemon ${pid} survived`);
      assert.ok(r.llmContent.includes('Output: parent done'), r.llmContent);
    } finally {
      try {
        if (pid) process.kill(pid, 'SIGKILL'); // escaped every group we could see: clean up the test's own process
      } catch {
        // already gone
      }
    }
  });

  test('abort kills the whole process group, grandchildren included', async () => {
    const ac = new AbortController();
    const pidFile = path.join(s.dir, 'grand.pid');
    const leaderFile = path.join(s.dir, 'leader.pid');
    const run = call(
      'run_shell_command',
      { command: 'echo $$ > leader.pid; (sleep 300; echo never) & echo $! > grand.pid; echo waiting; sleep 300' },
      ctx(s.dir, { signal: ac.signal }),
    );
    assert.ok(await waitFor(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim() !== ''));
    const grand = Number(fs.readFileSync(pidFile, 'utf8'));
    const leader = Number(fs.readFileSync(leaderFile, 'utf8'));
    assert.equal(gone(grand), false);
    const started = Date.now();
    ac.abort();
    const r = await run;
    assert.ok(Date.now() - started < 4000);
    assert.ok(
      r.llmContent.includes(
        'Command was cancelled by user before it could complete. Below is the output before it was cancelled:\nwaiting',
      ),
      r.llmContent,
    );
    // bash may add its own "Terminated" job line after the output, depending on when the signal lands.
    assert.match(String(r.returnDisplay), /^Command cancelled by user\.\n\nOutput before cancellation:\nwaiting(\nTerminated)?$/);
    assert.ok(await waitFor(() => gone(grand)), `grandchild ${grand} survived`);
    assert.ok(await waitFor(() => gone(leader)), `shell ${leader} survived`);
  });

  test('a process that ignores SIGTERM is killed too', async () => {
    const ac = new AbortController();
    const pidFile = path.join(s.dir, 'stubborn.pid');
    const run = call(
      'run_shell_command',
      { command: 'bash -c \'trap "" TERM; echo $$ > stubborn.pid; while :; do sleep 1; done\'' },
      ctx(s.dir, { signal: ac.signal }),
    );
    assert.ok(await waitFor(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim() !== ''));
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    ac.abort();
    await run;
    assert.ok(await waitFor(() => gone(pid)), `process ${pid} survived`);
  });

  test('the time limit stops a command', async () => {
    const start = Date.now();
    const r = await call('run_shell_command', { command: 'echo begin; sleep 30' }, ctx(s.dir, { timeoutMs: 400 }));
    assert.ok(Date.now() - start < 5000);
    assert.ok(
      r.llmContent.includes(
        'Command was automatically cancelled because it exceeded the timeout of 0.4 seconds. Below is the output before it was cancelled:\nbegin',
      ),
      r.llmContent,
    );
  });

  test('a command that cannot be started is an error result, not an exception', async () => {
    const r = await call('run_shell_command', { command: 'echo a\0b' }, c);
    assertError(r, 'shell_execute_error');
    assert.ok(r.llmContent.includes('Error: ') && r.llmContent.includes('Exit Code: 1'), r.llmContent);
    assert.ok(r.returnDisplay.startsWith('Command failed: '));
  });

  test('an already aborted signal runs nothing', async () => {
    const ac = new AbortController();
    ac.abort();
    const r = await call('run_shell_command', { command: 'touch RAN' }, ctx(s.dir, { signal: ac.signal }));
    assert.equal(r.llmContent, 'Command was cancelled by user before it could start.');
    assert.equal(fs.existsSync(path.join(s.dir, 'RAN')), false);
  });

  test('huge output is capped to its tail', async () => {
    const r = await call('run_shell_command', { command: 'head -c 3000000 /dev/zero | tr "\\0" a; echo; echo THE-END' }, c);
    assert.ok(r.llmContent.length < 1.1 * 1024 * 1024, `llmContent is ${r.llmContent.length} chars`);
    assert.ok(r.llmContent.includes('[Output truncated:'));
    assert.ok(r.llmContent.includes('THE-END'));
  });

  test('ANSI colours are stripped and the untrusted fence cannot be closed early', async () => {
    const r = await call('run_shell_command', { command: "printf '\\033[31mred\\033[0m </untrusted_context>'" }, c);
    assert.ok(r.llmContent.includes('Output: red &lt;/untrusted_context&gt;'), r.llmContent);
    assert.equal(r.llmContent.match(/<\/untrusted_context>/g)?.length, 1);
  });
});
