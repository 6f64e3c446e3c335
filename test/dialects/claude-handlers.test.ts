// Claude Code handler types and options: http (against an in-process server), prompt and agent
// (judged by a scripted model), mcp_tool, and the `if`, `once`, `async`, `asyncRewake`,
// `onFailure` and `statusMessage` options, with real hook processes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { ScriptedModel } from '../../src/agent/models/scripted.js';
import { fireClaude, parseClaudeSettings, type ClaudeConfig, type ClaudeEvent } from '../../src/dialects/claude/index.js';
import { ClaudeSession, Limiter } from '../../src/dialects/claude/background.js';
import { compileIfRule, simpleCommands } from '../../src/dialects/claude/if-rule.js';
import { judgePrompt, readJudgement } from '../../src/dialects/claude/handlers.js';
import { fx, q, tmpDir } from './util.js';

type Groups = Partial<Record<ClaudeEvent, Array<{ matcher?: string; hooks: Array<Record<string, unknown>> }>>>;
const cmd = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command, ...extra });

function parse(hooks: Groups) {
  return parseClaudeSettings(JSON.stringify({ hooks }), 'settings.json', 'project');
}
function configOf(hooks: Groups): ClaudeConfig {
  const r = parse(hooks);
  assert.deepEqual(
    r.problems.filter((p) => p.severity === 'error'),
    [],
  );
  return { files: [], hooks: r.hooks, problems: [] };
}
const problems = (hooks: Groups) => parse(hooks).problems.map((p) => `${p.severity} ${p.path}: ${p.message}`);
const bash = (command: string) => ({ tool_name: 'Bash', tool_input: { command }, tool_use_id: 'toolu_1' });

let base = '';
let server: http.Server;
const bodies: Array<{ url?: string; headers: http.IncomingHttpHeaders; body: unknown }> = [];

before(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      bodies.push({ url: req.url, headers: req.headers, body: JSON.parse(body) });
      const reply = (status: number, text: string) => res.writeHead(status, { 'content-type': 'application/json' }).end(text);
      if (req.url === '/deny')
        return reply(
          200,
          JSON.stringify({
            hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'central policy' },
          }),
        );
      if (req.url === '/down') return reply(503, 'maintenance');
      if (req.url === '/text') return reply(200, 'all good');
      return reply(200, '');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('Claude Code handlers: validation', () => {
  test('each type and option is checked, with the JSON path', () => {
    assert.deepEqual(
      problems({
        PreToolUse: [
          {
            hooks: [
              { type: 'http' },
              { type: 'http', url: 'ftp://x/' },
              { type: 'http', url: 'https://x/', headers: { A: 'a\nb' }, allowedEnvVars: ['$T'] },
              { type: 'http', url: 'https://x/', headers: { A: 'Bearer $T' }, command: 'ls' },
              { type: 'prompt' },
              { type: 'agent', prompt: 'p', continueOnBlock: true },
              cmd('a', { if: 'bash git' }),
              cmd('b', { if: 'Task(x)' }),
              cmd('c', { onFailure: 'explode' }),
              cmd('d', { async: true, onFailure: 'block' }),
              cmd('e', { once: 'yes' }),
            ],
          },
        ],
        SessionStart: [
          {
            hooks: [
              { type: 'prompt', prompt: 'p' },
              { type: 'http', url: 'https://x/' },
            ],
          },
        ],
        Stop: [{ hooks: [cmd('f', { if: 'Bash(git *)' })] }],
      }),
      [
        'error hooks.PreToolUse[0].hooks[0].url: missing "url" for an http hook',
        'error hooks.PreToolUse[0].hooks[1].url: "ftp://x/" must be an http:// or https:// URL',
        'error hooks.PreToolUse[0].hooks[2].headers.A: must not contain line breaks',
        'error hooks.PreToolUse[0].hooks[2].allowedEnvVars[0]: "$T" is not a variable name (write "API_TOKEN", not "$API_TOKEN")',
        'warning hooks.PreToolUse[0].hooks[3].command: "command" is for command hooks, not http hooks (ignored)',
        'warning hooks.PreToolUse[0].hooks[3].headers: $T is not in "allowedEnvVars": it is sent as an empty string (list it to send its value)',
        'error hooks.PreToolUse[0].hooks[4].prompt: missing "prompt" for a prompt hook',
        'warning hooks.PreToolUse[0].hooks[5].continueOnBlock: "continueOnBlock" is for prompt hooks, not agent hooks (ignored)',
        'error hooks.PreToolUse[0].hooks[6].if: "bash git" is not a permission rule (expected Tool or Tool(pattern), e.g. "Bash(git *)")',
        'error hooks.PreToolUse[0].hooks[7].if: "Task(x)": Hookline reads a pattern in parentheses for Bash, file tools (Read, Edit, Write…) and WebFetch(domain:…) only',
        'error hooks.PreToolUse[0].hooks[8].onFailure: "onFailure" must be "block" (fail closed) or left out, got "explode"',
        'warning hooks.PreToolUse[0].hooks[9].onFailure: a background (async) hook cannot block: "onFailure": "block" has no effect here',
        'error hooks.PreToolUse[0].hooks[10].once: "once" must be true or false, got a string',
        'error hooks.SessionStart[0].hooks[0].type: SessionStart does not take "prompt" hooks (Claude Code runs them on tool, prompt and stop events only)',
        'error hooks.SessionStart[0].hooks[1].type: SessionStart takes "command" and "mcp_tool" hooks only',
        'warning hooks.Stop[0].hooks[0].if: "if" filters apply to tool events only: on Stop this hook never runs',
      ],
    );
  });
});

describe('Claude Code "if" filters (permission-rule syntax)', () => {
  const where = { cwd: '/p', projectDir: '/p' };
  const rule = (text: string) => {
    const c = compileIfRule(text);
    assert.ok(c.ok, text);
    return c.rule;
  };
  test('Bash: each simple command, without leading assignments, inside $() and backticks; unreadable commands run the hook', () => {
    const git = rule('Bash(git *)');
    for (const c of ['git push', 'git', 'FOO=bar git push', 'npm test && git push', 'echo $(git log)', 'echo `git log`', 'ls | git apply'])
      assert.equal(git.test('Bash', { command: c }, where), true, c);
    for (const c of ['gitk', 'echo git push', 'npm test']) assert.equal(git.test('Bash', { command: c }, where), false, c);
    assert.equal(git.test('Read', { command: 'git push' }, where), false);
    assert.equal(git.test('Bash', { command: 'echo "unclosed' }, where), true);
    const commit = rule('Bash(git commit:*)');
    assert.equal(commit.test('Bash', { command: 'git commit -m x' }, where), true);
    assert.equal(commit.test('Bash', { command: 'git committee' }, where), false);
    assert.deepEqual(simpleCommands('A=1 B=2 make -j4; rm x || echo "a b"'), ['make -j4', 'rm x', 'echo a b']);
  });
  test('file tools: globs relative to the working folder, // absolute, / the project; a name pattern at any depth', () => {
    assert.equal(rule('Edit(*.ts)').test('Edit', { file_path: '/p/src/deep/a.ts' }, where), true);
    assert.equal(rule('Edit(*.ts)').test('Edit', { file_path: '/p/a.js' }, where), false);
    assert.equal(rule('Edit(*.ts)').test('Write', { file_path: '/p/a.ts' }, where), false);
    assert.equal(rule('Read(./src/**)').test('Read', { file_path: '/p/src/x/y.md' }, where), true);
    assert.equal(rule('Read(./src/**)').test('Read', { file_path: '/p/lib/y.md' }, where), false);
    assert.equal(rule('Read(./src/**)').test('Read', { file_path: '/elsewhere/src/y.md' }, where), false);
    assert.equal(rule('Read(//etc/*)').test('Read', { file_path: '/etc/passwd' }, where), true);
    assert.equal(rule('Read(/docs/*.md)').test('Read', { file_path: 'docs/a.md' }, where), true);
  });
  test('WebFetch domains, MCP names, a bare tool, and rules joined with ||', () => {
    assert.equal(rule('WebFetch(domain:example.com)').test('WebFetch', { url: 'https://example.com/x' }, where), true);
    assert.equal(rule('WebFetch(domain:example.com)').test('WebFetch', { url: 'https://evil.com/example.com' }, where), false);
    assert.equal(rule('mcp__github').test('mcp__github__create_issue', {}, where), true);
    assert.equal(rule('Write').test('Write', { file_path: 'x' }, where), true);
    const either = rule('Bash(rm *) || Edit(*.env)');
    assert.equal(either.test('Edit', { file_path: '/p/.env' }, where), true);
    assert.equal(either.test('Bash', { command: 'rm -rf x' }, where), true);
    assert.equal(either.test('Bash', { command: 'ls' }, where), false);
  });
  test('a hook with "if" runs only for matching calls (real processes)', async () => {
    const dir = tmpDir('hookline-cc-if-');
    const config = configOf({
      PreToolUse: [{ matcher: 'Bash', hooks: [cmd(`${fx('cc-reply.sh')} 2 '' 'no git here'`, { if: 'Bash(git push*)' })] }],
    });
    const push = await fireClaude(config, 'PreToolUse', bash('cd x && git push --force'), { projectDir: dir });
    assert.equal(push.output.permissionDecision, 'deny');
    assert.equal(push.output.permissionDecisionReason, 'no git here');
    const ls = await fireClaude(config, 'PreToolUse', bash('ls'), { projectDir: dir });
    assert.equal(ls.runs.length, 0);
  });
});

describe('Claude Code http hooks', () => {
  test("the input is POSTed; a JSON body decides; headers read allowedEnvVars only, from Hookline's environment", async () => {
    const config = configOf({
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            {
              type: 'http',
              url: `${base}/deny`,
              headers: { Authorization: 'Bearer $POLICY_TOKEN', 'X-Home': '$HOME' },
              allowedEnvVars: ['POLICY_TOKEN'],
            },
          ],
        },
      ],
    });
    const r = await fireClaude(config, 'PreToolUse', bash('rm -rf /'), {
      projectDir: tmpDir(),
      hostEnv: { POLICY_TOKEN: 'pt', HOME: '/h' },
      env: {},
    });
    assert.equal(r.output.permissionDecision, 'deny');
    assert.equal(r.output.permissionDecisionReason, 'central policy');
    assert.equal(r.runs[0].type, 'http');
    const req = bodies[bodies.length - 1];
    assert.equal(req.headers.authorization, 'Bearer pt');
    assert.equal(req.headers['x-home'], '');
    assert.equal((req.body as { tool_input: { command: string } }).tool_input.command, 'rm -rf /');
    assert.equal((req.body as { hook_event_name: string }).hook_event_name, 'PreToolUse');
  });

  test('non-2xx and a non-JSON body fail open with an error; onFailure "block" fails closed', async () => {
    const hooks = (extra: Record<string, unknown> = {}) =>
      configOf({
        PreToolUse: [
          {
            hooks: [
              { type: 'http', url: `${base}/down`, ...extra },
              { type: 'http', url: `${base}/text` },
            ],
          },
        ],
      });
    const open = await fireClaude(hooks(), 'PreToolUse', bash('ls'), { projectDir: tmpDir() });
    assert.equal(open.output.permissionDecision, undefined);
    assert.deepEqual(
      open.runs.map((r) => r.outcome),
      ['error', 'error'],
    );
    assert.match(
      open.output.errors[0],
      /^PreToolUse hook error: http:\/\/127\.0\.0\.1:\d+\/down: POST .* answered HTTP 503 Service Unavailable: maintenance$/,
    );
    assert.match(open.output.errors[1], /answered 200 with a body that is not a JSON object$/);
    const closed = await fireClaude(hooks({ onFailure: 'block' }), 'PreToolUse', bash('ls'), { projectDir: tmpDir() });
    assert.equal(closed.output.permissionDecision, 'deny');
    assert.match(closed.output.permissionDecisionReason!, /^http hook failed \(onFailure: block\): POST .* answered HTTP 503/);
  });
});

describe('Claude Code prompt, agent and mcp_tool hooks', () => {
  test('the model judges: $ARGUMENTS is the input; ok:false denies (a prompt hook also ends the turn, an agent hook does not)', async () => {
    const model = new ScriptedModel([
      { text: '```json\n{"ok": false, "reason": "touches prod"}\n```' },
      { text: '{"ok": false, "reason": "no"}' },
    ]);
    const prompt = configOf({ PreToolUse: [{ hooks: [{ type: 'prompt', prompt: 'Is this safe? $ARGUMENTS' }] }] });
    const r = await fireClaude(prompt, 'PreToolUse', bash('deploy prod'), { projectDir: tmpDir(), model });
    assert.equal(r.output.permissionDecision, 'deny');
    assert.equal(r.output.permissionDecisionReason, 'touches prod');
    assert.equal(r.output.continue, false);
    const user = model.calls[0].prompt.find((m) => m.role === 'user')!;
    const text = (user.content as Array<{ text?: string }>).map((p) => p.text ?? '').join('');
    assert.ok(text.startsWith('Is this safe? {"session_id"'), text);
    assert.ok(text.includes('"command":"deploy prod"'));
    const agent = configOf({ PreToolUse: [{ hooks: [{ type: 'agent', prompt: 'Check it' }] }] });
    const a = await fireClaude(agent, 'PreToolUse', bash('x'), { projectDir: tmpDir(), model });
    assert.equal(a.output.permissionDecision, 'deny');
    assert.equal(a.output.continue, true);
  });

  test('Stop: ok:false keeps Claude going with the reason; without a model the hook is an error that says so', async () => {
    const stop = configOf({ Stop: [{ hooks: [{ type: 'prompt', prompt: 'Done?' }] }] });
    const model = new ScriptedModel([{ text: '{"ok": false, "reason": "tests not run"}' }]);
    const r = await fireClaude(stop, 'Stop', {}, { projectDir: tmpDir(), model });
    assert.equal(r.output.decision, 'block');
    assert.equal(r.output.reason, 'tests not run');
    const none = await fireClaude(stop, 'Stop', {}, { projectDir: tmpDir(), noModel: 'needs a model: give one with --model' });
    assert.equal(none.output.decision, undefined);
    assert.equal(none.runs[0].error, 'prompt hook needs a model: give one with --model');
  });

  test('answers are read leniently but must say ok; the prompt gets the input appended when it does not name $ARGUMENTS', () => {
    assert.deepEqual(readJudgement('Sure. {"ok": true}'), { ok: true });
    assert.deepEqual(readJudgement('{"ok": false, "reason": "r", "impossible": true}'), { ok: false, reason: 'r', impossible: true });
    assert.equal(readJudgement('yes'), undefined);
    assert.equal(readJudgement('{"decision": "block"}'), undefined);
    assert.equal(judgePrompt('Check.', '{"a":1}'), 'Check.\n\nInput:\n{"a":1}');
  });

  test('mcp_tool: a clear error, fail open, or closed with onFailure "block"', async () => {
    const config = configOf({ PreToolUse: [{ hooks: [{ type: 'mcp_tool', server: 'audit', tool: 'check', onFailure: 'block' }] }] });
    const r = await fireClaude(config, 'PreToolUse', bash('ls'), { projectDir: tmpDir() });
    assert.equal(r.output.permissionDecision, 'deny');
    assert.equal(
      r.output.permissionDecisionReason,
      'mcp_tool hook failed (onFailure: block): mcp_tool hook audit/check not called: Hookline has no MCP client configured',
    );
  });

  test('at most 12 judges at once: a limiter hands a finishing slot to the next waiting run', async () => {
    const limit = new Limiter(2);
    const gates: Array<() => void> = [];
    let peak = 0;
    const job = () =>
      limit.run(async () => {
        peak = Math.max(peak, limit.running);
        await new Promise<void>((r) => gates.push(r));
      });
    const all = [job(), job(), job(), job()];
    while (gates.length < 2) await new Promise((r) => setImmediate(r));
    assert.equal(gates.length, 2);
    gates.shift()!();
    while (gates.length < 2) await new Promise((r) => setImmediate(r));
    gates.splice(0).forEach((g) => g());
    while (gates.length < 1) await new Promise((r) => setImmediate(r));
    gates.splice(0).forEach((g) => g());
    await Promise.all(all);
    assert.equal(peak, 2);
  });
});

describe('Claude Code once, async, asyncRewake, statusMessage', () => {
  test('once in a settings file: runs every time, as Claude Code runs it (it removes only a skill’s once hooks), with a warning', async () => {
    const dir = tmpDir();
    const log = path.join(dir, 'log');
    const groups = { Stop: [{ hooks: [cmd(`echo x >> ${q(log)}`, { once: true, statusMessage: 'Saving…' })] }] };
    assert.match(problems(groups).join('\n'), /^warning .*once: "once" is honoured only for a skill's hooks/m);
    const config = configOf(groups);
    const session = new ClaudeSession();
    const shown: string[] = [];
    await fireClaude(config, 'Stop', {}, { projectDir: dir, session, onStart: (h) => shown.push(h.statusMessage!) });
    const second = await fireClaude(config, 'Stop', {}, { projectDir: dir, session, onStart: (h) => shown.push(h.statusMessage!) });
    assert.equal(second.runs.length, 1);
    assert.equal(fs.readFileSync(log, 'utf8'), 'x\nx\n');
    assert.deepEqual(shown, ['Saving…', 'Saving…']);
  });

  test('async: runs in the background, its block is not honoured; in an interactive session asyncRewake exit 2 leaves its stderr for the next turn', async () => {
    const dir = tmpDir();
    const go = path.join(dir, 'go');
    const bg = (name: string, extra: Record<string, unknown>, code: number, say: string) =>
      cmd(`${fx('cc-bg.sh')} ${q(path.join(dir, name))} ${q(go)} ${q(say)} ${code}`, extra);
    const config = configOf({
      PostToolUse: [
        {
          hooks: [
            bg('a', { async: true }, 2, 'ignored'),
            bg('b', { asyncRewake: true }, 2, 'lint failed: 3 errors'),
            bg(
              'c',
              { asyncRewake: true, rewakeMessage: 'Security review of the commit:', rewakeSummary: 'Review found issues' },
              2,
              'key in diff',
            ),
          ],
        },
      ],
    });
    const session = new ClaudeSession();
    const r = await fireClaude(
      config,
      'PostToolUse',
      { ...bash('ls'), tool_response: {} },
      { projectDir: dir, session, rewakeInBackground: true },
    );
    // The fire returned while all three still wait for the go-ahead.
    assert.equal(r.runs.length, 0);
    assert.equal(r.output.decision, undefined);
    assert.equal(session.pending, 0);
    fs.writeFileSync(go, '');
    await session.settle();
    assert.ok(fs.existsSync(path.join(dir, 'a')) && fs.existsSync(path.join(dir, 'b')));
    // Claude Code's words: its own prefix naming the hook, or the hook's rewakeMessage, then what the hook said.
    assert.deepEqual(
      session.drain().sort((x, y) => x.text.localeCompare(y.text)),
      [
        { text: 'Security review of the commit: key in diff', summary: 'Review found issues' },
        { text: 'Stop hook blocking error from command "PostToolUse:Bash": lint failed: 3 errors', summary: 'Stop hook feedback' },
      ],
    );
    assert.deepEqual(session.drain(), []);
  });

  test('asyncRewake outside an interactive session (-p, a fire) is an ordinary hook, as Claude Code runs it: its exit 2 blocks', async () => {
    const dir = tmpDir();
    const config = configOf({
      PostToolUse: [{ hooks: [cmd(`echo 'HK-finding' >&2; exit 2`, { asyncRewake: true, rewakeMessage: 'Review:' })] }],
    });
    const session = new ClaudeSession();
    const r = await fireClaude(config, 'PostToolUse', { ...bash('ls'), tool_response: {} }, { projectDir: dir, session });
    assert.equal(r.runs.length, 1);
    assert.equal(r.runs[0].background, undefined);
    assert.equal(r.output.decision, 'block');
    assert.match(r.output.blocks.map((b) => b.reason).join('\n'), /HK-finding/);
    assert.equal(session.pending, 0);
  });

  test('rewakeMessage and rewakeSummary: read as Claude Code reads them, with a warning where they do nothing', () => {
    assert.deepEqual(
      problems({ PostToolUse: [{ hooks: [cmd('true', { asyncRewake: true, rewakeMessage: 'R:', rewakeSummary: 'S' })] }] }),
      [],
    );
    assert.match(
      problems({ PostToolUse: [{ hooks: [cmd('true', { rewakeMessage: 'R:' })] }] }).join('\n'),
      /^warning .*rewakeMessage: "rewakeMessage" is used only with "asyncRewake": true/m,
    );
    assert.match(
      problems({ PostToolUse: [{ hooks: [cmd('true', { asyncRewake: true, rewakeSummary: '' })] }] }).join('\n'),
      /rewakeSummary: "rewakeSummary" must be a non-empty string, got an empty string/,
    );
  });

  test('without a session, background hooks are awaited and reported, deciding nothing', async () => {
    const dir = tmpDir();
    const config = configOf({ PreToolUse: [{ hooks: [cmd(`${fx('cc-bg.sh')} ${q(path.join(dir, 'a'))} - 'no' 2`, { async: true })] }] });
    const r = await fireClaude(config, 'PreToolUse', bash('ls'), { projectDir: dir });
    assert.equal(r.output.permissionDecision, undefined);
    assert.equal(r.runs.length, 1);
    assert.equal(r.runs[0].background, true);
    assert.equal(r.runs[0].outcome, 'async');
    assert.equal(r.runs[0].exitCode, 2);
  });

  test('closing a session stops its background hooks', async () => {
    const dir = tmpDir();
    const started = path.join(dir, 'started');
    const config = configOf({
      Stop: [{ hooks: [cmd(`${fx('cc-bg.sh')} ${q(started)} ${q(path.join(dir, 'never'))} '' 0`, { async: true })] }],
    });
    const session = new ClaudeSession();
    await fireClaude(config, 'Stop', {}, { projectDir: dir, session });
    while (!fs.existsSync(started)) await new Promise((r) => setTimeout(r, 20));
    await session.close();
    assert.equal(session.pending, 0);
  });
});

describe('Claude Code handlers through the system and the adapter', () => {
  /** A folder with its own home; `user` is the user's ~/.claude/settings.json. */
  function home(user: unknown) {
    const base = tmpDir('hookline-cc-sys-');
    const dir = path.join(base, 'project');
    const h = path.join(base, 'home');
    fs.mkdirSync(dir, { recursive: true });
    fs.mkdirSync(path.join(h, '.claude'), { recursive: true });
    fs.writeFileSync(path.join(h, '.claude', 'settings.json'), JSON.stringify(user));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: h,
      GEMINI_CLI_HOME: h,
      GEMINI_CLI_SYSTEM_SETTINGS_PATH: path.join(base, 'none.json'),
    };
    delete env.GEMINI_CLI_TRUST_WORKSPACE;
    return { dir, env };
  }

  test('hookline fire --dialect claude judges prompt hooks with --model, and says a model is needed without one', async () => {
    const { claudeSystem } = await import('../../src/dialects/claude/system.js');
    const { dir, env } = home({ hooks: { Stop: [{ hooks: [{ type: 'prompt', prompt: 'Done?' }] }] } });
    const without = await claudeSystem.fire('Stop', {}, { cwd: dir, env, hasModel: false });
    assert.match(
      without.warnings.join('\n'),
      /Stop hook Done\? \(.*settings\.json hooks\.Stop\[0\]\.hooks\[0\]\): prompt hook needs a model to judge it: give one with --model/,
    );
    const model = new ScriptedModel([{ text: '{"ok": false, "reason": "run the tests"}' }]);
    const withModel = await claudeSystem.fire('Stop', {}, { cwd: dir, env, hasModel: true, model: async () => model });
    assert.deepEqual(
      [(withModel.output as { decision?: string }).decision, (withModel.output as { reason?: string }).reason],
      ['block', 'run the tests'],
    );
    assert.equal((withModel.runs[0] as { type: string }).type, 'prompt');
  });

  test('`hookline fire` judges with the configured model (HOOKLINE_MODEL) when --model is not given', async () => {
    const { runCli } = await import('../helpers.js');
    const { dir, env } = home({ hooks: { Stop: [{ hooks: [{ type: 'prompt', prompt: 'Done?' }] }] } });
    const script = path.join(dir, 'model.jsonl');
    fs.writeFileSync(script, `${JSON.stringify({ text: '{"ok": false, "reason": "update the changelog"}' })}\n`);
    const r = await runCli(['fire', 'Stop', '--dialect', 'claude', '--input', '-'], {
      cwd: dir,
      env: { ...env, HOOKLINE_MODEL: `scripted:${script}` },
      input: '{}',
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json().output.reason, 'update the changelog');
  });

  test("in the agent, the session's model judges prompt hooks before a tool", async () => {
    const { claudeAdapter } = await import('../../src/dialects/claude/agent.js');
    const config = configOf({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'agent', prompt: 'Is $ARGUMENTS safe?' }] }] });
    const model = new ScriptedModel([{ text: '{"ok": false, "reason": "deletes the repository"}' }]);
    const notices: string[] = [];
    const adapter = claudeAdapter(
      { config, env: {}, model },
      {
        cwd: tmpDir(),
        modelName: 'm',
        session: () => ({ id: 's1', transcriptPath: '' }),
        approvalMode: () => 'default',
        io: { notice: (l) => notices.push(l) },
        displayHooks: false,
        counter: { next: 1 },
        depth: 0,
      },
    );
    const effect = await adapter.beforeTool!({ id: 't1', name: 'run_shell_command', args: { command: 'rm -rf .git' }, step: 1 });
    assert.equal(effect.action, 'deny');
    assert.match(JSON.stringify(effect), /deletes the repository/);
    adapter.close?.();
  });

  test('the adapter shows statusMessage, and in an interactive session an asyncRewake hook that exits 2 wakes the agent at the end of the turn', async () => {
    const { claudeAdapter } = await import('../../src/dialects/claude/agent.js');
    const dir = tmpDir();
    const config = configOf({
      PostToolUse: [
        {
          hooks: [
            cmd(`${fx('cc-bg.sh')} ${q(path.join(dir, 'a'))} - 'lint: 2 errors in a.ts' 2`, { asyncRewake: true }),
            cmd(`${fx('cc-reply.sh')} 0`, { statusMessage: 'Checking the edit…' }),
          ],
        },
      ],
    });
    const notices: string[] = [];
    const adapter = claudeAdapter(
      { config, env: {} },
      {
        cwd: dir,
        modelName: 'm',
        session: () => ({ id: 's1', transcriptPath: '' }),
        approvalMode: () => 'default',
        io: { notice: (l) => notices.push(l) },
        displayHooks: false,
        counter: { next: 1 },
        depth: 0,
        interactive: true,
      },
    );
    try {
      await adapter.afterTool!({
        id: 't1',
        name: 'run_shell_command',
        args: { command: 'ls' },
        step: 1,
        result: { llmContent: 'ok', returnDisplay: 'ok' },
        llmContent: 'ok',
      });
      assert.ok(notices.includes('  ⏳ Checking the edit…'), notices.join('\n'));
      const end = { prompt: 'p', response: 'r', stopHookActive: false, retries: 0, maxRetries: 3 };
      // The background hook ends on its own; wait for its message (a safety net, not a measure).
      const giveUp = Date.now() + 60_000;
      let effect = await adapter.turnEnd!(end);
      while (effect.action === 'accept' && Date.now() < giveUp) {
        await new Promise((r) => setTimeout(r, 20));
        effect = await adapter.turnEnd!(end);
      }
      assert.equal(effect.action, 'retry');
      assert.equal(
        (effect as { prompt: string }).prompt,
        'Stop hook blocking error from command "PostToolUse:Bash": lint: 2 errors in a.ts',
      );
      assert.equal((effect as { systemMessage?: string }).systemMessage, 'Stop hook feedback');
      assert.equal((await adapter.turnEnd!(end)).action, 'accept');
    } finally {
      adapter.close?.();
    }
  });
});
