// Gemini CLI's approval prompt details for Notification hooks, and the paths its titles shorten.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { confirmation, relativeTo, shortenPath } from '../../src/agent/tools/confirm.js';
import { builtinTools, findTool } from '../../src/agent/tools/index.js';

const tool = (name: string) => {
  const t = findTool(builtinTools(), name);
  assert.ok(t, name);
  return t;
};

describe('shortenPath', () => {
  test('a path that fits is kept', () => {
    assert.equal(shortenPath('src/a.ts'), 'src/a.ts');
    assert.equal(shortenPath('x'.repeat(35)), 'x'.repeat(35));
  });
  test('the first folder, "...", and the last parts that fit', () => {
    assert.equal(shortenPath('some/deeply/nested/folder/of/files/new.txt'), 'some/.../folder/of/files/new.txt');
    // Parts are cut down, the first folder before the file name, when even one more part does not fit.
    assert.equal(shortenPath('averyveryverylongfirstfolder/x/averyverylongfilename.txt'), 'av.../.../averyverylongfilename.txt');
  });
  test('a long name alone is cut in the middle; a long last part keeps its end', () => {
    assert.equal(shortenPath('a'.repeat(20) + 'b'.repeat(20)), `${'a'.repeat(16)}...${'b'.repeat(16)}`);
    const s = shortenPath(`dir/${'n'.repeat(50)}.txt`);
    assert.ok(s.length <= 35, s);
    assert.ok(s.endsWith('.txt'), s);
  });
  test('paths relative to the project folder', () => {
    assert.equal(relativeTo('/p', '/p/a/b.txt'), path.join('a', 'b.txt'));
    assert.equal(relativeTo('/p', '/p'), '.');
    assert.equal(relativeTo('/p', 'rel.txt'), 'rel.txt');
  });
});

describe('confirmation details', () => {
  test('a shell command', () => {
    assert.deepEqual(confirmation(tool('run_shell_command'), { command: '  git status -s' }, '/p', undefined), {
      details: { type: 'exec', title: 'Confirm Shell Command', command: '  git status -s', rootCommand: 'git' },
      message: 'Tool Confirm Shell Command requires execution',
    });
  });
  test('a write and an edit: the file, its diff, before and after', () => {
    const w = confirmation(tool('write_file'), { file_path: '/p/src/a.txt', content: 'x\n' }, '/p', {
      filePath: '/p/src/a.txt',
      originalContent: null,
      newContent: 'x\n',
    });
    assert.equal(w.message, `Tool Confirm Write: ${path.join('src', 'a.txt')} requires editing`);
    assert.deepEqual(w.details, {
      type: 'edit',
      title: `Confirm Write: ${path.join('src', 'a.txt')}`,
      fileName: 'a.txt',
      filePath: '/p/src/a.txt',
      fileDiff:
        'Index: a.txt\n===================================================================\n--- a.txt\tCurrent\n+++ a.txt\tProposed\n@@ -0,0 +1,1 @@\n+x\n',
      originalContent: '',
      newContent: 'x\n',
    });
    const e = confirmation(tool('replace'), { file_path: 'b.txt', old_string: '', new_string: 'y' }, '/p', {
      filePath: '/p/b.txt',
      originalContent: null,
      newContent: 'y',
    });
    assert.equal(e.details.title, 'Confirm Edit: b.txt');
    assert.equal(e.details.originalContent, null, 'a file an edit creates has no content before');
  });
  test('other tools: info, with what the call is about', () => {
    assert.deepEqual(confirmation(tool('read_file'), { file_path: '/p/docs/a.md' }, '/p', undefined), {
      details: { type: 'info', title: 'Confirm: ReadFile', prompt: path.join('docs', 'a.md') },
      message: 'Tool Confirm: ReadFile requires information',
    });
    assert.equal(confirmation(tool('glob'), { pattern: '*.ts' }, '/p', undefined).details.prompt, "'*.ts'");
    assert.equal(
      confirmation(tool('search_file_content'), { pattern: 'x', include: '*.md' }, '/p', undefined).details.prompt,
      "'x' in *.md within ./",
    );
    assert.equal(confirmation(tool('list_directory'), { dir_path: '/p/src' }, '/p', undefined).details.title, 'Confirm: ReadFolder');
  });
});
