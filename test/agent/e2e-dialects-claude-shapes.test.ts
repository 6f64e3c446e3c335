// End to end: Claude Code hooks in `hookline agent` see the agent's tools in Claude's shapes and
// a Claude Code transcript. One hook script (a real process) checks its stdin and the transcript,
// rewrites calls with Claude's argument names, and reads the last answer back at Stop.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { agentProject, fixture, readJsonl, sq, toolResults } from './e2e-util.js';

describe('Claude Code hooks see Claude-shaped tools and transcripts', () => {
  test('PreToolUse rewrites {command} and {file_path} and the rewrites run; PostToolUse and Stop read Claude shapes', async () => {
    const p = agentProject({});
    const log = path.join(p.base, 'cc-shapes.jsonl');
    const hook = (matcher?: string) => [
      { ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command: `${fixture('cc-shapes.mjs')} ${sq(log)}`, timeout: 10 }] },
    ];
    fs.mkdirSync(path.join(p.dir, '.claude'), { recursive: true });
    fs.writeFileSync(
      path.join(p.dir, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { PreToolUse: hook('Bash|Write'), PostToolUse: hook('*'), Stop: hook() } }),
    );
    const r = await p.run({
      prompt: 'write the files',
      script: [
        {
          text: 'Writing the files.',
          toolCalls: [
            { name: 'run_shell_command', args: { command: 'echo DRAFT > out.txt' } },
            { name: 'write_file', args: { file_path: 'draft.txt', content: 'hello\n' } },
          ],
        },
        { text: 'All done.' },
      ],
      args: ['--approval-mode', 'yolo'],
      env: { HOME: p.home },
    });
    assert.equal(r.code, 0, r.stderr);

    // The rewrites reached the tools.
    assert.equal(fs.readFileSync(path.join(p.dir, 'out.txt'), 'utf8'), 'FINAL\n');
    assert.equal(fs.readFileSync(path.join(p.dir, 'final.txt'), 'utf8'), 'hello\n');
    assert.equal(fs.existsSync(path.join(p.dir, 'draft.txt')), false);
    assert.equal(toolResults(r.calls[1]).length, 2);

    const seen = readJsonl(log);
    assert.deepEqual(
      seen.map((s) => [s.event, s.tool ?? null]),
      [
        ['PreToolUse', 'Bash'],
        ['PostToolUse', 'Bash'],
        ['PreToolUse', 'Write'],
        ['PostToolUse', 'Write'],
        ['Stop', null],
      ],
    );
    for (const s of seen) assert.deepEqual(s.problems, [], `${s.event} ${s.tool ?? ''}`);
    assert.deepEqual(seen[0].input, { command: 'echo DRAFT > out.txt' });
    assert.deepEqual(seen[1].input, { command: 'echo FINAL > out.txt' });
    assert.deepEqual(seen[1].response, { stdout: '', stderr: '', interrupted: false, isImage: false, noOutputExpected: false });
    assert.deepEqual(seen[2].input, { file_path: path.join(p.dir, 'draft.txt'), content: 'hello\n' });
    assert.deepEqual(seen[3].response, {
      type: 'create',
      filePath: path.join(p.dir, 'final.txt'),
      content: 'hello\n',
      structuredPatch: [],
      originalFile: null,
      userModified: false,
    });
    // The Stop input's last_assistant_message is the last answer (not every answer of the turn), as in the transcript.
    assert.equal(seen[4].last, 'All done.');
  });
});
