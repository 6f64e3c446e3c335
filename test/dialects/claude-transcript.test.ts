// Claude Code dialect: the agent's session as a Claude Code transcript (JSONL), made from the
// agent's own transcript and kept beside it, brought up to date before each Claude hook.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Session } from '../../src/agent/session.js';
import { ClaudeTranscript, claudeTranscriptPath } from '../../src/dialects/claude/transcript.js';
import { claudeToolUseId } from '../../src/dialects/claude/tools.js';
import { tmpDir } from './util.js';

const read = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

describe('Claude Code transcript', () => {
  const home = tmpDir('hookline-cc-tr-home-');
  const project = tmpDir('hookline-cc-tr-proj-');
  const env = { GEMINI_CLI_HOME: home };

  test('user, assistant (one entry per block), tool results; parentUuid chains; only new lines appended', () => {
    const s = Session.create(project, env);
    const t = new ClaudeTranscript(s.transcriptPath, { sessionId: s.id, cwd: project, model: 'gemini-2.5-pro' });
    assert.equal(t.path, path.join(path.dirname(s.transcriptPath), 'claude', `${s.id}.jsonl`));
    assert.equal(claudeTranscriptPath(s.transcriptPath, s.id), t.path);
    assert.equal(t.sync(), t.path);
    assert.deepEqual(read(t.path), []);

    s.push({ role: 'user', text: 'list the files' });
    s.push({ role: 'model', text: 'Looking.', toolCalls: [{ id: 'c1', name: 'run_shell_command', args: { command: 'ls' } }] });
    s.push({ role: 'tool', results: [{ id: 'c1', name: 'run_shell_command', output: 'a.txt' }] });
    t.sync();
    const first = read(t.path);
    assert.deepEqual(
      first.map((e) => [e.type, e.message.role, e.message.content]),
      [
        ['user', 'user', 'list the files'],
        ['assistant', 'assistant', [{ type: 'text', text: 'Looking.' }]],
        ['assistant', 'assistant', [{ type: 'tool_use', id: claudeToolUseId('c1'), name: 'Bash', input: { command: 'ls' } }]],
        ['user', 'user', [{ tool_use_id: claudeToolUseId('c1'), type: 'tool_result', content: 'a.txt', is_error: false }]],
      ],
    );
    assert.equal(first[0].parentUuid, null);
    for (let i = 1; i < first.length; i++) assert.equal(first[i].parentUuid, first[i - 1].uuid);
    for (const e of first) {
      assert.match(e.uuid, /^[0-9a-f-]{36}$/);
      assert.equal(e.sessionId, s.id);
      assert.equal(e.cwd, project);
      assert.ok(!Number.isNaN(Date.parse(e.timestamp)));
    }
    // The two blocks of one answer share its message id.
    assert.equal(first[1].message.id, first[2].message.id);
    assert.match(first[1].message.id, /^msg_/);
    assert.equal(first[1].message.model, 'gemini-2.5-pro');

    s.push({ role: 'model', text: 'There is a.txt.' });
    t.sync();
    t.sync();
    const all = read(t.path);
    assert.equal(all.length, 5);
    assert.deepEqual(all.slice(0, 4), first);
    assert.equal(all[4].parentUuid, first[3].uuid);
    // What a Stop hook reads: the last assistant entry's text.
    assert.equal(all.filter((e) => e.type === 'assistant').at(-1).message.content[0].text, 'There is a.txt.');
    assert.equal(t.lastAssistantText, 'There is a.txt.');
  });

  test('a replaced history starts after a compact_boundary entry; a resumed session is written whole', () => {
    const s = Session.create(project, env);
    const t = new ClaudeTranscript(s.transcriptPath, { sessionId: s.id, cwd: project, model: 'm' });
    s.push({ role: 'user', text: 'one' }, { role: 'model', text: 'two' });
    t.sync();
    s.reset([{ role: 'user', text: 'Summary of the earlier conversation' }]);
    s.push({ role: 'model', text: 'three' });
    t.sync();
    const entries = read(t.path);
    assert.deepEqual(
      entries.map((e) => [e.type, e.subtype ?? e.message?.content]),
      [
        ['user', 'one'],
        ['assistant', [{ type: 'text', text: 'two' }]],
        ['system', 'compact_boundary'],
        ['user', 'Summary of the earlier conversation'],
        ['assistant', [{ type: 'text', text: 'three' }]],
      ],
    );
    assert.equal(entries[2].parentUuid, null);
    assert.equal(entries[2].logicalParentUuid, entries[1].uuid);
    assert.equal(entries[3].parentUuid, entries[2].uuid);

    // A new process (a resumed session) rewrites the file from the agent's whole transcript.
    const again = new ClaudeTranscript(s.transcriptPath, { sessionId: s.id, cwd: project, model: 'm' });
    again.sync();
    assert.deepEqual(
      read(again.path).map((e) => e.type),
      entries.map((e) => e.type),
    );
  });

  test('a missing agent transcript gives an empty Claude transcript; a half-written last line waits for the next sync', () => {
    const dir = tmpDir('hookline-cc-tr-');
    const agentFile = path.join(dir, 'session-x.jsonl');
    const t = new ClaudeTranscript(agentFile, { sessionId: 'abc', cwd: dir, model: 'm' });
    t.sync();
    assert.deepEqual(read(t.path), []);
    // An agent with no transcript of its own gets none.
    assert.equal(new ClaudeTranscript('', { sessionId: 'abc', cwd: dir, model: 'm' }).sync(), '');
    fs.writeFileSync(agentFile, `${JSON.stringify({ type: 'session', sessionId: 'abc' })}\n{"type":"message","message":{"role":"user","te`);
    t.sync();
    assert.deepEqual(read(t.path), []);
    fs.appendFileSync(agentFile, 'xt":"hi"}}\n');
    t.sync();
    assert.deepEqual(
      read(t.path).map((e) => e.message.content),
      ['hi'],
    );
  });
});
