// mm (seed 002): "Exécution", "Variables d'environnement", "Entrée" and "L'objet ask", with
// real hook processes.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fireMm } from '../../src/dialects/mm/chain.js';
import { buildMmInput, encodeMmJson } from '../../src/dialects/mm/input.js';
import { MM_EVENTS } from '../../src/dialects/mm/events.js';
import { fx, mmSetup, mmYaml, q, read, tmpDir } from './util.js';

/** One hook on `event` capturing into a fresh folder; returns what it saw. */
async function capture(event: (typeof MM_EVENTS)[number], data: Parameters<typeof fireMm>[2], opts: Parameters<typeof fireMm>[3] = {}) {
  const out = tmpDir();
  const { dir, config } = mmSetup(mmYaml({ [event]: [{ command: `${fx('mm-capture.sh')} ${q(out)}` }] }));
  const r = await fireMm(config, event, data, { cwd: dir, ...opts });
  assert.equal(r.runs.length, 1, 'the hook ran');
  assert.equal(r.runs[0].success, true, r.runs[0].error);
  const [hookEvent, configDir, bin, mmConfig] = read(path.join(out, 'env')).split('\n');
  return {
    r,
    dir,
    stdin: read(path.join(out, 'stdin')),
    input: JSON.parse(read(path.join(out, 'stdin'))),
    cwd: read(path.join(out, 'cwd')).trim(),
    env: { hookEvent, configDir, bin, mmConfig },
  };
}

describe('mm execution', () => {
  test('command: run by sh -c (not bash)', async () => {
    const { dir, config } = mmSetup(mmYaml({ preGeneration: [{ command: 'printf \'{"context":"%s"}\' "$0"' }] }));
    const r = await fireMm(config, 'preGeneration', { prompt: 'x' }, { cwd: dir });
    assert.deepEqual(r.contexts, ['sh']);
  });

  test('working folder: the session folder', async () => {
    const session = tmpDir();
    const c = await capture('preGeneration', { prompt: 'x' }, { cwd: session });
    assert.equal(c.cwd, session);
    assert.equal(c.input.cwd, session, 'the input cwd is the session folder, absolute');
  });

  test("environment: mm's own (secret-looking names included) plus the hook variables", async () => {
    const out = tmpDir();
    const { dir, config } = mmSetup(mmYaml({ postToolCall: [{ command: `echo "$MY_API_TOKEN $PLAIN_VAR" > ${q(out)}/vars` }] }));
    await fireMm(
      config,
      'postToolCall',
      { tool: { name: 'bash' }, output: 'o' },
      { cwd: dir, env: { ...process.env, MY_API_TOKEN: 't0k', PLAIN_VAR: 'plain' } },
    );
    assert.equal(read(path.join(out, 'vars')), 't0k plain\n');
  });

  test('MM_HOOK_EVENT, MM_CONFIG_DIR (absolute folder of the declaring file), MM_BIN and MM_CONFIG', async () => {
    for (const event of MM_EVENTS) {
      const data = event.includes('Ask') ? { ask: { agent: 'expert' } } : event.includes('Tool') ? { tool: { name: 'bash' } } : {};
      const c = await capture(event, data, { mmBin: '/usr/local/bin/mm' });
      assert.equal(c.env.hookEvent, event);
      assert.equal(c.env.configDir, c.dir);
      assert.ok(path.isAbsolute(c.env.configDir));
      assert.equal(c.env.bin, '/usr/local/bin/mm');
      assert.equal(c.env.mmConfig, path.join(c.dir, 'agent.yaml'));
    }
  });

  test('stdin: one JSON object then end of file; & < > written raw, so a hook can search for && by text', async () => {
    const c = await capture('preToolCall', {
      tool: { id: 'call_1', name: 'bash', input: { command: 'make && ./run > out.txt < in.txt' } },
    });
    assert.ok(c.stdin.includes('"command":"make && ./run > out.txt < in.txt"'), c.stdin);
    assert.ok(!c.stdin.includes('\\u0026'));
    assert.ok(!c.stdin.endsWith('\n'), 'exactly the object');
    const { dir, config } = mmSetup(mmYaml({ preToolCall: [{ command: fx('mm-guard.sh') }] }));
    const r = await fireMm(config, 'preToolCall', { tool: { name: 'bash', input: { command: 'make && make install' } } }, { cwd: dir });
    assert.deepEqual(r.output, { action: 'deny', reason: 'one command at a time' });
  });

  test('stderr is ignored when the run succeeds', async () => {
    const { dir, config } = mmSetup(mmYaml({ preGeneration: [{ command: 'echo noise >&2; echo \'{"context":"fine"}\'' }] }));
    const r = await fireMm(config, 'preGeneration', { prompt: 'x' }, { cwd: dir });
    assert.equal(r.runs[0].decision, 'context (4 chars)');
    assert.deepEqual(r.failures, []);
  });

  test("concurrency: one event's hooks run one after another", async () => {
    const log = path.join(tmpDir(), 'log');
    const { dir, config } = mmSetup(
      mmYaml({
        preToolCall: [{ command: `sleep 0.2; ${fx('mm-log.sh')} ${q(log)} first` }, { command: `${fx('mm-log.sh')} ${q(log)} second` }],
      }),
    );
    await fireMm(config, 'preToolCall', { tool: { name: 'bash' } }, { cwd: dir });
    assert.equal(read(log), 'preToolCall first\npreToolCall second\n');
  });

  test('two tool calls of one model response may run their chains in parallel, numbered apart', async () => {
    // The hook answers only once both chains have started it: run one after the other, they never meet.
    const meeting = tmpDir();
    const { dir, config } = mmSetup(
      mmYaml({ preToolCall: [{ command: `${fx('meet.sh')} ${q(meeting)} 2 chain '' '{}'`, timeout: '2m' }] }),
    );
    const counter = { next: 1 };
    const [a, b] = await Promise.all([
      fireMm(config, 'preToolCall', { tool: { name: 'bash' } }, { cwd: dir, counter }),
      fireMm(config, 'preToolCall', { tool: { name: 'read_file' } }, { cwd: dir, counter }),
    ]);
    assert.deepEqual([a.runs[0].error, b.runs[0].error], [undefined, undefined], 'the two chains overlapped');
    assert.deepEqual([a.runs[0].n, b.runs[0].n].sort(), [1, 2]);
  });
});

describe('mm input object', () => {
  test("the seed's preGeneration example, byte for byte", async () => {
    const c = await capture('preGeneration', {
      cwd: '/home/moi/projet',
      model: 'llmman/hf.co/unsloth/gemma-4-E4B-it-GGUF:Q4_K_M',
      prompt: 'list the files',
    });
    assert.equal(
      c.stdin,
      '{"event":"preGeneration","cwd":"/home/moi/projet","model":"llmman/hf.co/unsloth/gemma-4-E4B-it-GGUF:Q4_K_M","prompt":"list the files"}',
    );
  });

  test("the seed's preToolCall example, byte for byte", async () => {
    const c = await capture('preToolCall', {
      cwd: '/home/moi/projet',
      model: 'llmman/…',
      tool: { id: 'call_1', name: 'bash', input: { command: 'rm -rf build' } },
    });
    assert.equal(
      c.stdin,
      '{"event":"preToolCall","cwd":"/home/moi/projet","model":"llmman/…","tool":{"id":"call_1","name":"bash","input":{"command":"rm -rf build"}}}',
    );
  });

  test("the seed's postAsk example, byte for byte (withContext false and depth 0 are written, transcript is not)", async () => {
    const c = await capture('postAsk', {
      cwd: '/home/moi/projet',
      model: 'llmman/…',
      ask: {
        agent: 'expert',
        config: '/home/moi/projet/agent.expert.yaml',
        agentModel: 'llmman/…',
        via: 'tool',
        withContext: false,
        depth: 0,
        prompt: "Qu'est-ce qu'un inode ?",
      },
      answer: 'Un inode est …',
      durationMs: 25374,
    });
    assert.equal(
      c.stdin,
      '{"event":"postAsk","cwd":"/home/moi/projet","model":"llmman/…","ask":{"agent":"expert","config":"/home/moi/projet/agent.expert.yaml","agentModel":"llmman/…","via":"tool","withContext":false,"depth":0,"prompt":"Qu\'est-ce qu\'un inode ?"},"answer":"Un inode est …","durationMs":25374}',
    );
  });

  test('event, cwd, model on every event; each other field only on its events', () => {
    const all = {
      model: 'p/m',
      prompt: 'q',
      tool: { id: 'c', name: 'bash', input: { a: 1 } },
      ask: { agent: 'expert', config: '/c.yaml' },
      output: 'out',
      answer: 'ans',
      error: 'err',
      durationMs: 12,
    };
    const keys = (e: (typeof MM_EVENTS)[number]) => Object.keys(buildMmInput(e, all, '/w'));
    assert.deepEqual(keys('preGeneration'), ['event', 'cwd', 'model', 'prompt']);
    assert.deepEqual(keys('postGeneration'), ['event', 'cwd', 'model', 'prompt', 'answer', 'error']);
    assert.deepEqual(keys('preToolCall'), ['event', 'cwd', 'model', 'tool']);
    assert.deepEqual(keys('postToolCall'), ['event', 'cwd', 'model', 'tool', 'output']);
    assert.deepEqual(keys('preAsk'), ['event', 'cwd', 'model', 'ask']);
    assert.deepEqual(keys('postAsk'), ['event', 'cwd', 'model', 'ask', 'answer', 'error', 'durationMs']);
  });

  test('empty fields are omitted: no error on success, no answer when there is none, no empty prompt', () => {
    assert.deepEqual(buildMmInput('postGeneration', { prompt: '', answer: '', error: '' }, '/w'), { event: 'postGeneration', cwd: '/w' });
    assert.deepEqual(
      buildMmInput('postAsk', { ask: { agent: 'a', config: '/a.yaml', prompt: 'q' }, answer: '', durationMs: 0 }, '/w').durationMs,
      undefined,
    );
  });

  test('tool: id (may be empty), name, input', () => {
    assert.deepEqual(buildMmInput('postToolCall', { tool: { name: 'read_file', input: { path: 'a' } }, output: 'x' }, '/w').tool, {
      id: '',
      name: 'read_file',
      input: { path: 'a' },
    });
  });

  test('postToolCall output as the model will read it; postGeneration the last answer and the error', async () => {
    const t = await capture('postToolCall', { tool: { id: 'c', name: 'bash', input: {} }, output: 'total 0\n' });
    assert.equal(t.input.output, 'total 0\n');
    const g = await capture('postGeneration', { prompt: '[prompt blocked by a hook: no]', answer: 'a', error: 'model failed' });
    assert.deepEqual([g.input.prompt, g.input.answer, g.input.error], ['[prompt blocked by a hook: no]', 'a', 'model failed']);
  });

  test('ask: agent, config, agentModel (absent when unreadable), via, withContext, depth, prompt, transcript (withContext only)', async () => {
    const c = await capture('preAsk', {
      ask: {
        agent: 'expert',
        config: '/p/agent.expert.yaml',
        via: 'command',
        withContext: true,
        depth: 1,
        prompt: 'why?',
        transcript: 'user: hi\nassistant: hello',
      },
    });
    assert.deepEqual(c.input.ask, {
      agent: 'expert',
      config: '/p/agent.expert.yaml',
      via: 'command',
      withContext: true,
      depth: 1,
      prompt: 'why?',
      transcript: 'user: hi\nassistant: hello',
    });
    assert.equal('agentModel' in c.input.ask, false);
    const cli = buildMmInput('preAsk', { ask: { agent: 'e', config: '/e.yaml', agentModel: 'p/m', via: 'cli', prompt: 'q' } }, '/w')
      .ask as Record<string, unknown>;
    assert.equal(cli.via, 'cli');
    assert.equal(cli.agentModel, 'p/m');
    assert.equal('transcript' in cli, false);
  });

  test('asked: only in an agent another one called, {"depth": n}', async () => {
    assert.equal('asked' in buildMmInput('preGeneration', { prompt: 'q' }, '/w'), false);
    assert.equal('asked' in buildMmInput('preGeneration', { prompt: 'q', asked: { depth: 0 } }, '/w'), false);
    const c = await capture('preToolCall', { tool: { name: 'bash' }, asked: { depth: 1 } });
    assert.deepEqual(c.input.asked, { depth: 1 });
  });

  test('JSON encoding: & < > raw, U+2028 escaped as Go does', () => {
    assert.equal(encodeMmJson({ s: 'a&&b <x> \u2028' }), '{"s":"a&&b <x> \\u2028"}');
  });

  test('each hook of a chain reads what the previous one left', async () => {
    const out = tmpDir();
    const { dir, config } = mmSetup(
      mmYaml({ preToolCall: [{ command: fx('mm-input.js') }, { command: `${fx('mm-capture.sh')} ${q(out)}` }] }),
    );
    await fireMm(config, 'preToolCall', { tool: { id: 'c1', name: 'bash', input: { command: 'rm -rf build' } } }, { cwd: dir });
    assert.deepEqual(JSON.parse(read(path.join(out, 'stdin'))).tool, {
      id: 'c1',
      name: 'bash',
      input: { command: 'rm -rf build --dry-run' },
    });
    assert.ok(fs.existsSync(path.join(out, 'cwd')));
  });
});
