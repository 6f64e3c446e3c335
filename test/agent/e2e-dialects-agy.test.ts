// End to end: Antigravity CLI hooks (.agents/hooks.json) in `hookline agent` with a scripted
// model: tool calls reach the hooks under agy's names, deny/ask/allow decide, the invocation and
// Stop hooks observe, and an untrusted folder runs none of them.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { agentProject, fixture, readJsonl, respond, sq, toolResults, type AgentProject } from './e2e-util.js';

const YOLO = ['--approval-mode', 'yolo'];
const shell = (command: string) => ({ toolCalls: [{ name: 'run_shell_command', args: { command } }] });

function agyProject(hooks: Record<string, unknown>, trusted = true): AgentProject {
  const p = agentProject({}, { trusted });
  fs.mkdirSync(path.join(p.dir, '.agents'), { recursive: true });
  fs.writeFileSync(path.join(p.dir, '.agents', 'hooks.json'), JSON.stringify(hooks));
  return p;
}

const group = (matcher: string, command: string) => [{ matcher, hooks: [{ type: 'command', command, timeout: 10 }] }];

describe('agy hooks in the agent', () => {
  for (const form of ['decision', 'legacy']) {
    test(`PreToolUse deny (${form} form): the command never runs, the model reads the reason`, async () => {
      const p = agyProject({ guard: { PreToolUse: group('run_command', `${fixture('agy-guard.mjs')} ${form}`) } });
      const marker = path.join(p.dir, 'ran');
      const r = await p.run({ prompt: 'go', script: [shell(`rm -rf ${sq(marker)}; touch ${sq(marker)}`), { text: 'ok' }], args: YOLO });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(fs.existsSync(marker), false);
      assert.equal(
        toolResults(r.calls[1])[0].value,
        `tool call denied by pre-tool hook: destructive command: rm -rf ${sq(marker)}; touch ${sq(marker)}`,
      );
    });
  }

  test("PreToolUse allow: the tool runs; the hook read agy's camelCase input with agy's tool name and argument keys", async () => {
    const p = agyProject({});
    const seen = path.join(p.base, 'pre.jsonl');
    fs.writeFileSync(
      path.join(p.dir, '.agents', 'hooks.json'),
      JSON.stringify({ hooks: { PreToolUse: group('', respond(seen, { decision: 'allow' })) } }),
    );
    const marker = path.join(p.dir, 'ran');
    const r = await p.run({ prompt: 'go', script: [shell(`touch ${sq(marker)}`), { text: 'ok' }], args: YOLO });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.existsSync(marker), true);
    const [input] = readJsonl(seen);
    assert.deepEqual(input.toolCall, { name: 'run_command', args: { CommandLine: `touch ${sq(marker)}` } });
    assert.equal(input.stepIdx, 0);
    assert.equal(typeof input.conversationId, 'string');
    assert.equal(typeof input.transcriptPath, 'string');
    assert.equal(input.workspacePaths.length, 1);
    assert.ok([p.dir, fs.realpathSync(p.dir)].includes(input.workspacePaths[0]), input.workspacePaths[0]);
    assert.equal(input.artifactDirectoryPath, path.dirname(input.transcriptPath));
  });

  test('PreToolUse ask: the tool needs approval even in yolo mode; with no terminal it is refused', async () => {
    const p = agyProject({ guard: { PreToolUse: group('run_command', fixture('agy-guard.mjs')) } });
    const r = await p.run({ prompt: 'go', script: [shell('git push origin main'), { text: 'ok' }], args: YOLO });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      toolResults(r.calls[1])[0].value,
      /needs the user's approval \(a hook asked for it\), and there is no terminal to ask; it was not run/,
    );
    assert.match(r.stderr, /pushing needs a person/);
  });

  test('a matcher on another agy tool leaves the shell alone; view_file matches read_file', async () => {
    const p = agyProject({});
    const seen = path.join(p.base, 'view.jsonl');
    fs.writeFileSync(
      path.join(p.dir, '.agents', 'hooks.json'),
      JSON.stringify({ h: { PreToolUse: group('view_file', respond(seen, { allowTool: false, denyReason: 'no reading' })) } }),
    );
    fs.writeFileSync(path.join(p.dir, 'a.txt'), 'hello');
    const marker = path.join(p.dir, 'ran');
    const r = await p.run({
      prompt: 'go',
      script: [shell(`touch ${sq(marker)}`), { toolCalls: [{ name: 'read_file', args: { file_path: 'a.txt' } }] }, { text: 'ok' }],
      args: YOLO,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.existsSync(marker), true);
    assert.equal(toolResults(r.calls[2]).at(-1)?.value, 'tool call denied by pre-tool hook: no reading');
    const inputs = readJsonl(seen);
    assert.equal(inputs.length, 1);
    assert.deepEqual(inputs[0].toolCall, { name: 'view_file', args: { AbsolutePath: 'a.txt' } });
  });

  test('PreInvocation and PostInvocation per model call, PostToolUse after the tool, Stop with terminationReason', async () => {
    const p = agyProject({});
    const log = path.join(p.base, 'events.jsonl');
    const rec = (event: string) => `{ printf '%s ' ${event}; cat; echo; } >> ${sq(log)}`;
    fs.writeFileSync(
      path.join(p.dir, '.agents', 'hooks.json'),
      JSON.stringify({
        all: {
          PreInvocation: [{ command: rec('PreInvocation') }],
          PostInvocation: [{ command: rec('PostInvocation') }],
          PostToolUse: group('run_command', rec('PostToolUse')),
          Stop: [{ command: rec('Stop') }],
        },
      }),
    );
    const r = await p.run({ prompt: 'go', script: [shell('echo hi'), { text: 'done' }], args: YOLO });
    assert.equal(r.code, 0, r.stderr);
    const lines = fs
      .readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const i = l.indexOf(' ');
        return { event: l.slice(0, i), input: JSON.parse(l.slice(i + 1)) };
      });
    assert.deepEqual(
      lines.map((l) => l.event),
      ['PreInvocation', 'PostInvocation', 'PostToolUse', 'PreInvocation', 'PostInvocation', 'Stop'],
    );
    assert.deepEqual(
      lines.map((l) => l.input.stepIdx),
      [0, 0, 0, 1, 1, 1],
    );
    const post = lines[2].input;
    assert.deepEqual(post.toolCall, { name: 'run_command', args: { CommandLine: 'echo hi' } });
    assert.match(post.toolResult.output, /hi/);
    assert.equal(lines[5].input.terminationReason, 'NO_TOOL_CALL');
  });

  test('in an untrusted folder nothing from .agents/hooks.json runs, and stderr says so', async () => {
    const p = agyProject(
      { h: { PreToolUse: group('', 'touch agy-ran; echo \'{"decision": "deny"}\''), Stop: [{ command: 'touch agy-stop' }] } },
      false,
    );
    const marker = path.join(p.dir, 'ran');
    const r = await p.run({ prompt: 'go', script: [shell(`touch ${sq(marker)}`), { text: 'ok' }], args: YOLO });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.existsSync(marker), true);
    assert.equal(fs.existsSync(path.join(p.dir, 'agy-ran')), false);
    assert.equal(fs.existsSync(path.join(p.dir, 'agy-stop')), false);
    assert.match(r.stderr, /not a trusted folder: the hooks in \.agents\/hooks\.json do not run/);
  });
});
