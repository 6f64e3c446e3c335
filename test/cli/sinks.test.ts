// Escape at the sink, validate on load: whatever a hook, a model or a foreign trace file put in a
// field, what reaches a terminal or a page shows it, and a trace line of the wrong shape is skipped.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { cmd, makeProject, runCli, tmpFile } from '../helpers.js';
import { jsonText, visible } from '../../src/config/display.js';
import { traceLines, type TraceFire } from '../../src/engine/trace.js';
import { parseTrace } from '../../src/cli/trace-file.js';

/** No raw control, bidi, zero-width, variation selector or other default-ignorable character. */
const RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]|[\ufe00-\ufe0f]|\u034f|\u17b4|\u180b|\u{e0100}/u;

describe('every code point that renders as nothing or as something else is escaped', () => {
  test('default-ignorables, variation selectors, and combining marks with nothing to combine with', () => {
    assert.equal(visible('lint\ufe0f.sh'), 'lint\\ufe0f.sh');
    assert.equal(visible('lint\u{e0100}.sh'), 'lint\\u{e0100}.sh');
    assert.equal(visible('a\u034fb\u180bc\u17b4d'), 'a\\u034fb\\u180bc\\u17b4d');
    assert.equal(visible('\u0301x'), '\\u0301x', 'a mark first sits on nothing');
    assert.equal(visible('a \u0301'), 'a \\u0301', 'nor on a space');
    assert.equal(visible('x\u202e\u0301'), 'x\\u202e\\u0301', 'nor on an escape');
    assert.equal(visible(`e${'\u0301'.repeat(6)}`), `e${'\u0301'.repeat(4)}\\u0301\\u0301`, 'a pile of marks is cut');
    // Text in any script stays as it is.
    for (const t of ['é', 'e\u0301', 'नमस्ते', 'Tiếng Việt', 'русский', '中文', '😀']) assert.equal(visible(t), t);
    // Next to plain ASCII: DEL, C1 controls and tabs are escaped.
    assert.equal(visible('a\x7fb\x85c\td'), 'a\\x7fb\\x85c\\td');
  });

  test('JSON output keeps its value and hides nothing', () => {
    const value = { name: 'lint\ufe0f.sh\u202e', tag: '\u{e0100}' };
    const text = jsonText(value, 2);
    assert.doesNotMatch(text, RAW);
    assert.deepEqual(JSON.parse(text), value);
    // DEL and the C1 controls are the code points next to plain ASCII: escaped too.
    for (const v of [{ del: 'a\x7fb' }, { c1: 'a\x85b\x9b[2K' }]) {
      const t = jsonText(v);
      assert.doesNotMatch(t, RAW);
      assert.deepEqual(JSON.parse(t), v);
    }
    assert.equal(jsonText({ plain: 'ls -la\n' }, 2), JSON.stringify({ plain: 'ls -la\n' }, null, 2));
  });

  test('list, trust --check and fire show a name with a variation selector escaped', async () => {
    const name = 'lint\ufe0f.sh';
    const p = makeProject({ project: { hooks: { BeforeTool: [{ hooks: [cmd('true', { name })] }] } }, trusted: false });
    for (const args of [
      ['list', '--cwd', p.dir],
      ['list', '--cwd', p.dir, '--json'],
      ['trust', '--check', p.dir],
      ['doctor', '--cwd', p.dir],
    ]) {
      const r = await runCli(args, { env: p.env });
      assert.doesNotMatch(r.stdout + r.stderr, RAW, args.join(' '));
      assert.match(r.stdout + r.stderr, /lint\\ufe0f\.sh/, args.join(' '));
    }
  });
});

function fire(over: Partial<TraceFire> = {}): TraceFire {
  return {
    dialect: 'gemini',
    session: 's1',
    event: 'BeforeTool',
    target: 'run_shell_command',
    input: {},
    decision: 'deny',
    reason: 'no',
    runs: [{ hook: 'guard', source: 'user', start: 1_000, ms: 12, exit: 0, decision: 'deny' }],
    ...over,
  };
}

describe('trace and explain: escaped at the sink, validated as read', () => {
  const hostile = '\x1b]0;owned\x07\x1b[2J';

  test("a hook's decision and the model's tool name reach the terminal escaped", async () => {
    const file = tmpFile('hostile.jsonl');
    const lines = traceLines(
      fire({
        target: `run${hostile}`,
        decision: `deny${hostile}`,
        runs: [{ hook: 'guard', start: 1_000, ms: 5, exit: 0, decision: `deny${hostile}` }],
      }),
      { inputs: false },
    );
    fs.writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    for (const args of [
      ['trace', file],
      ['explain', file],
      ['explain', file, '--json'],
      ['trace', file, '--json'],
    ]) {
      const r = await runCli(args, {});
      assert.equal(r.code, 0, r.stderr);
      assert.doesNotMatch(r.stdout + r.stderr, RAW, args.join(' '));
      assert.match(r.stdout, /\\(x1b|u001b)\]0;owned/, args.join(' '));
    }
  });

  test('a foreign line whose ms is not a number is skipped, and never reaches the page', async () => {
    const file = tmpFile('foreign.jsonl');
    const [run, f] = traceLines(fire(), { inputs: false });
    const bad = { ...run, ms: '<img src=x onerror=alert(1)>' };
    fs.writeFileSync(file, `${[bad, run, f].map((l) => JSON.stringify(l)).join('\n')}\n`);
    assert.equal(parseTrace(fs.readFileSync(file, 'utf8')).skipped, 1);
    const out = path.join(path.dirname(file), 'page.html');
    const r = await runCli(['trace', file, '--html', out], {});
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /1 line\(s\) are not trace records/);
    const html = fs.readFileSync(out, 'utf8');
    assert.ok(!html.includes('<img'), 'the foreign text is not in the page');
    assert.match(html, /12 ms/);
  });

  test('numbers are numbers, texts are texts: other shapes are not trace records', () => {
    const [run, f] = traceLines(fire(), { inputs: false });
    const text = (ls: unknown[]) => ls.map((l) => JSON.stringify(l)).join('\n');
    assert.equal(parseTrace(text([run, f])).skipped, 0);
    for (const broken of [
      { ...run, ms: '5' },
      { ...run, ms: -1 },
      { ...run, exit: 'x' },
      { ...run, decision: { html: '<b>' } },
      { ...run, start: 'not a date' },
      { ...f, runs: 'many' },
      { ...f, decision: 7 },
    ])
      assert.equal(parseTrace(text([broken])).skipped, 1, JSON.stringify(broken));
  });
});
