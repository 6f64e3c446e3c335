// End to end: Codex hooks (the user's ~/.codex/hooks.json, recorded as reviewed by `hookline
// trust` in Codex's own records) at the agent's compaction, hand-off and session points, with the
// fields Codex sends: PreCompact/PostCompact around /compress (the trigger, and no permission mode),
// SubagentStart/SubagentStop around a hand-off (a SubagentStart context reaching the called agent,
// both with the subagent's turn), SessionEnd's interactive reason.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { runCli, tmpFile } from '../helpers.js';
import { agentProject, lastUser, notes, readJsonl, respond, type AgentProject } from './e2e-util.js';

const YOLO = ['--approval-mode', 'yolo'];
const codex = (command: string, matcher?: string) => [{ ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command }] }];

/** Writes the user's Codex hooks and records each as reviewed, as `hookline trust` does for Codex. */
async function userCodexHooks(p: AgentProject, hooks: Record<string, unknown>): Promise<NodeJS.ProcessEnv> {
  const home = path.join(p.home, '.codex');
  fs.mkdirSync(home, { recursive: true });
  fs.writeFileSync(path.join(home, 'hooks.json'), JSON.stringify({ hooks }));
  const env = { ...p.env, HOME: p.home, HOOKLINE_CODEX_SYSTEM_DIR: path.join(p.base, 'no-etc-codex') };
  delete env.CODEX_HOME;
  const t = await runCli(['trust', p.dir], { cwd: p.dir, env });
  assert.equal(t.code, 0, t.stderr);
  assert.match(fs.readFileSync(path.join(home, 'config.toml'), 'utf8'), /trusted_hash = "sha256:/);
  return env;
}

describe('Codex hooks at the agent’s compaction, hand-off and session points', () => {
  test('PreCompact and PostCompact around /compress (the trigger, nothing more); SessionEnd prompt_input_exit', async () => {
    const logs = { pre: tmpFile('codex-pre-compact.jsonl'), post: tmpFile('codex-post-compact.jsonl'), end: tmpFile('codex-end.jsonl') };
    const p = agentProject({});
    const env = await userCodexHooks(p, {
      PreCompact: codex(respond(logs.pre)),
      PostCompact: codex(respond(logs.post)),
      SessionEnd: codex(respond(logs.end)),
    });
    const r = await p.run({
      input: 'one\ntwo\nthree\n/compress\nfour\n/quit\n',
      script: [{ text: 'a' }, { text: 'b' }, { text: 'c' }, { text: 'd' }],
      args: YOLO,
      env,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /without a trust record/);
    const [pre, ...morePre] = readJsonl(logs.pre);
    assert.equal(morePre.length, 0);
    // Codex 0.169 sends its compaction hooks no instructions, summary or permission mode.
    const fields = ['session_id', 'turn_id', 'transcript_path', 'cwd', 'hook_event_name', 'model', 'trigger'].sort();
    assert.deepEqual(Object.keys(pre).sort(), fields);
    assert.deepEqual([pre.hook_event_name, pre.trigger, typeof pre.turn_id], ['PreCompact', 'manual', 'string']);
    const [post] = readJsonl(logs.post);
    assert.deepEqual(Object.keys(post).sort(), fields);
    assert.deepEqual([post.hook_event_name, post.trigger], ['PostCompact', 'manual']);
    assert.equal(post.session_id, pre.session_id);
    const [end] = readJsonl(logs.end);
    assert.deepEqual([end.hook_event_name, end.reason, end.turn_id], ['SessionEnd', 'prompt_input_exit', undefined]);
  });

  test('SubagentStart gives the called agent context; SubagentStop hears its answer, as the asking session', async () => {
    const logs = { start: tmpFile('codex-sub-start.jsonl'), stop: tmpFile('codex-sub-stop.jsonl'), main: tmpFile('codex-stop.jsonl') };
    const p = agentProject({});
    fs.writeFileSync(path.join(p.dir, 'agent.yaml'), stringify({ model: 'scripted/main', mmConfigs: { expert: 'agent.expert.yaml' } }));
    fs.writeFileSync(path.join(p.dir, 'agent.expert.yaml'), stringify({ model: 'scripted/expert' }));
    const env = await userCodexHooks(p, {
      SubagentStart: codex(
        respond(logs.start, { hookSpecificOutput: { hookEventName: 'SubagentStart', additionalContext: 'You review shell output.' } }),
      ),
      SubagentStop: codex(respond(logs.stop)),
      Stop: codex(respond(logs.main)),
    });
    const r = await p.run({
      prompt: 'ask the expert',
      script: [
        { toolCalls: [{ name: 'ask_agent', args: { agent: 'expert', prompt: 'What does echo print?' } }] },
        { text: 'It prints its arguments.' },
        { text: 'done' },
      ],
      args: YOLO,
      env,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(lastUser(r.calls[1]), 'What does echo print?');
    assert.ok(
      notes(r.calls[1]).some((n) => n.includes('You review shell output.')),
      JSON.stringify(r.calls[1].prompt),
    );
    const [start] = readJsonl(logs.start);
    const [stop, ...moreStops] = readJsonl(logs.stop);
    const [main] = readJsonl(logs.main);
    assert.equal(moreStops.length, 0);
    assert.deepEqual([start.hook_event_name, start.agent_type], ['SubagentStart', 'expert']);
    assert.equal(start.session_id, main.session_id, 'the asking session’s id');
    assert.notEqual(start.agent_id, main.session_id);
    assert.deepEqual(
      [stop.hook_event_name, stop.agent_id, stop.agent_type, stop.last_assistant_message, stop.stop_hook_active],
      ['SubagentStop', start.agent_id, 'expert', 'It prints its arguments.', false],
    );
    // Both carry the subagent's own turn, not the asking one's.
    assert.equal(typeof start.turn_id, 'string');
    assert.equal(stop.turn_id, start.turn_id);
    assert.notEqual(start.turn_id, main.turn_id);
    assert.equal(main.last_assistant_message, 'done');
  });
});
