// End to end: the hooks of each dialect fire inside the agent's hand-offs (its subagents), and
// Claude Code's hooks see the hand-off as Claude Code's SubagentStart/SubagentStop.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { tmpFile } from '../helpers.js';
import { agentProject, lastUser, notes, on, readJsonl, respond, sq } from './e2e-util.js';

const YOLO = ['--approval-mode', 'yolo'];
const cc = (command: string, matcher?: string) => [{ ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command }] }];

describe('hooks inside hand-offs', () => {
  test('Claude Code and Gemini hooks run in the called agent; SubagentStart gives it context, SubagentStop hears its answer and may keep it working', async () => {
    const logs = {
      pre: tmpFile('pre-tool.jsonl'),
      gemini: tmpFile('before-tool.jsonl'),
      start: tmpFile('subagent-start.jsonl'),
      stop: tmpFile('subagent-stop.jsonl'),
      session: tmpFile('session-start.jsonl'),
      mainStop: tmpFile('stop.jsonl'),
      prompt: tmpFile('prompt.jsonl'),
    };
    const p = agentProject({ hooks: { BeforeTool: on(respond(logs.gemini), { matcher: 'run_shell_command' }) } });
    fs.writeFileSync(path.join(p.dir, 'agent.yaml'), stringify({ model: 'scripted/main', mmConfigs: { expert: 'agent.expert.yaml' } }));
    fs.writeFileSync(path.join(p.dir, 'agent.expert.yaml'), stringify({ model: 'scripted/expert' }));
    fs.mkdirSync(path.join(p.dir, '.claude'));
    fs.writeFileSync(
      path.join(p.dir, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: {
          PreToolUse: cc(respond(logs.pre)),
          SubagentStart: cc(
            respond(logs.start, { hookSpecificOutput: { hookEventName: 'SubagentStart', additionalContext: 'You review shell output.' } }),
            'expert',
          ),
          // The first answer is sent back with the reason as the called agent's next prompt.
          SubagentStop: cc(
            `input=$(cat); printf '%s\\n' "$input" >> ${sq(logs.stop)}; if [ ! -e stopped-once ]; then touch stopped-once; echo '{"decision":"block","reason":"cite the manual"}'; fi`,
          ),
          SessionStart: cc(respond(logs.session)),
          Stop: cc(respond(logs.mainStop)),
          UserPromptSubmit: cc(respond(logs.prompt)),
        },
      }),
    );
    const r = await p.run({
      prompt: 'ask the expert',
      script: [
        { toolCalls: [{ name: 'ask_agent', args: { agent: 'expert', prompt: 'What does echo print?' } }] },
        { toolCalls: [{ name: 'run_shell_command', args: { command: 'echo child-ran' } }] },
        { text: 'It prints its arguments.' },
        { text: 'See man echo.' },
        { text: 'done' },
      ],
      args: YOLO,
      env: { HOME: p.home },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.calls.length, 5);
    assert.equal(lastUser(r.calls[3]), 'SubagentStop hook feedback:\ncite the manual');
    assert.equal(lastUser(r.calls[1]), 'What does echo print?');
    assert.deepEqual(
      notes(r.calls[1]),
      ['SubagentStart hook additional context: You review shell output.'],
      'the context follows the called agent’s prompt, a message of its own',
    );

    assert.deepEqual(
      readJsonl(logs.prompt).map((i) => i.prompt),
      ['ask the expert'],
      'UserPromptSubmit for the user’s prompt only, not the hand-off’s question',
    );
    const [main] = readJsonl(logs.session);
    assert.equal(readJsonl(logs.session).length, 1, 'SessionStart for the user’s session only');
    const [start] = readJsonl(logs.start);
    assert.equal(start.agent_type, 'expert');
    assert.equal(start.session_id, main.session_id, 'the asking session’s id');
    assert.notEqual(start.agent_id, main.session_id);

    const pre = readJsonl(logs.pre);
    assert.deepEqual(
      pre.map((i) => [i.tool_name, i.session_id, i.agent_id, i.agent_type]),
      [
        ['Agent', main.session_id, undefined, undefined],
        ['Bash', main.session_id, start.agent_id, 'expert'],
      ],
      'the called agent’s tool call goes through the Claude Code hooks, marked as a subagent’s',
    );
    assert.deepEqual(
      readJsonl(logs.gemini).map((i) => i.tool_input.command),
      ['echo child-ran'],
      'and through the Gemini hooks',
    );

    const [stop, again, ...more] = readJsonl(logs.stop);
    assert.equal(more.length, 0);
    assert.deepEqual(
      [stop.hook_event_name, stop.agent_id, stop.agent_type, stop.last_assistant_message, stop.stop_hook_active],
      ['SubagentStop', start.agent_id, 'expert', 'It prints its arguments.', false],
    );
    assert.equal(again.stop_hook_active, true);
    assert.match(again.last_assistant_message, /See man echo\.$/);
    assert.ok(fs.existsSync(stop.agent_transcript_path), 'the called agent’s own transcript');
    assert.deepEqual(
      readJsonl(logs.mainStop).map((i) => i.last_assistant_message),
      ['done'],
      'Stop for the user’s agent only',
    );
  });
});
