import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { projectWith, mark, type MarkProject } from './util.js';
import { cmd } from '../helpers.js';
import type { ConfigProblem } from '../../src/config/problems.js';

type Where = 'project' | 'user' | 'system';

interface Case {
  name: string;
  where: Where;
  /** The `hooks` block (or whole settings when `settings` is set) holding one broken piece. */
  hooks?: (marker: string) => unknown;
  settings?: (marker: string) => unknown;
  path: string;
  severity: 'error' | 'warning';
  message: RegExp;
  /** Labels that must run on BeforeTool(run_shell_command); 'good' is always added. */
  alsoRuns?: string[];
  /** Hook names that must not be loaded at all. */
  dropped?: string[];
}

const good = (m: string) => ({ hooks: [mark(m, 'good')] });
const bt = (broken: (m: string) => unknown) => (m: string) => ({ BeforeTool: [good(m), broken(m)] });

const cases: Case[] = [
  {
    name: '"hooks" not an object',
    where: 'user',
    settings: () => ({ hooks: [1] }),
    path: 'hooks',
    severity: 'error',
    message: /"hooks" must be an object keyed by event name/,
  },
  {
    name: 'unknown event, with a suggestion',
    where: 'project',
    hooks: (m) => ({ BeforeTool: [good(m)], BeforeTools: [{ hooks: [mark(m, 'typo')] }] }),
    path: 'hooks.BeforeTools',
    severity: 'error',
    message: /unknown event "BeforeTools" \(did you mean "BeforeTool"\?\)/,
    dropped: ['typo'],
  },
  {
    name: "another agent's event name, with a suggestion",
    where: 'system',
    hooks: (m) => ({ BeforeTool: [good(m)], PreToolUse: [{ hooks: [mark(m, 'claude')] }] }),
    path: 'hooks.PreToolUse',
    severity: 'error',
    message: /unknown event "PreToolUse" \(did you mean "BeforeTool"\?\)/,
    dropped: ['claude'],
  },
  {
    name: 'definitions not an array',
    where: 'project',
    hooks: (m) => ({ BeforeTool: [good(m)], AfterTool: 'x' }),
    path: 'hooks.AfterTool',
    severity: 'error',
    message: /"AfterTool" must be an array of hook definitions/,
  },
  {
    name: 'definition not an object',
    where: 'user',
    hooks: bt(() => 'echo hi'),
    path: 'hooks.BeforeTool[1]',
    severity: 'error',
    message: /hook definition must be an object with a "hooks" array/,
  },
  {
    name: 'definition without "hooks"',
    where: 'project',
    hooks: bt(() => ({ matcher: 'x' })),
    path: 'hooks.BeforeTool[1].hooks',
    severity: 'error',
    message: /missing "hooks" array/,
  },
  {
    name: 'definition "hooks" not an array',
    where: 'project',
    hooks: bt((m) => ({ hooks: mark(m, 'solo') })),
    path: 'hooks.BeforeTool[1].hooks',
    severity: 'error',
    message: /"hooks" must be an array/,
    dropped: ['solo'],
  },
  {
    name: 'hook not an object',
    where: 'system',
    hooks: bt(() => ({ hooks: ['echo hi'] })),
    path: 'hooks.BeforeTool[1].hooks[0]',
    severity: 'error',
    message: /a hook must be an object/,
  },
  {
    name: 'missing type',
    where: 'project',
    hooks: bt((m) => ({ hooks: [{ command: 'true', name: 'untyped' }, mark(m, 'sibling')] })),
    path: 'hooks.BeforeTool[1].hooks[0].type',
    severity: 'error',
    message: /missing "type"/,
    dropped: ['untyped'],
    alsoRuns: ['sibling'],
  },
  {
    name: 'unknown type',
    where: 'user',
    hooks: bt(() => ({ hooks: [{ type: 'prompt', command: 'true', name: 'p' }] })),
    path: 'hooks.BeforeTool[1].hooks[0].type',
    severity: 'error',
    message: /unknown hook type; expected "command"/,
    dropped: ['p'],
  },
  {
    name: 'runtime type in settings',
    where: 'project',
    hooks: bt(() => ({ hooks: [{ type: 'runtime', name: 'rt' }] })),
    path: 'hooks.BeforeTool[1].hooks[0].type',
    severity: 'error',
    message: /runtime hooks are registered in code/,
    dropped: ['rt'],
  },
  {
    name: 'missing command',
    where: 'project',
    hooks: bt(() => ({ hooks: [{ type: 'command', name: 'nocmd' }] })),
    path: 'hooks.BeforeTool[1].hooks[0].command',
    severity: 'error',
    message: /missing "command"/,
    dropped: ['nocmd'],
  },
  {
    name: 'empty command',
    where: 'system',
    hooks: bt(() => ({ hooks: [cmd('', { name: 'empty' })] })),
    path: 'hooks.BeforeTool[1].hooks[0].command',
    severity: 'error',
    message: /command must not be empty/,
    dropped: ['empty'],
  },
  {
    name: 'command not a string',
    where: 'user',
    hooks: bt(() => ({ hooks: [cmd(['ls'] as unknown as string, { name: 'arr' })] })),
    path: 'hooks.BeforeTool[1].hooks[0].command',
    severity: 'error',
    message: /"command" must be a string, got an array/,
    dropped: ['arr'],
  },
  {
    name: 'negative timeout',
    where: 'project',
    hooks: bt((m) => ({ hooks: [mark(m, 'neg', { timeout: -5 })] })),
    path: 'hooks.BeforeTool[1].hooks[0].timeout',
    severity: 'error',
    message: /positive number of milliseconds/,
    dropped: ['neg'],
  },
  {
    name: 'non-integer timeout (warning; used as given, as the reference does)',
    where: 'project',
    hooks: bt((m) => ({ hooks: [mark(m, 'frac', { timeout: 2500.5 })] })),
    path: 'hooks.BeforeTool[1].hooks[0].timeout',
    severity: 'warning',
    message: /timeout 2500\.5 is not a whole number of milliseconds/,
    alsoRuns: ['frac'],
  },
  {
    name: 'string timeout that is not a number',
    where: 'user',
    hooks: bt((m) => ({ hooks: [mark(m, 'strt', { timeout: 'soon' })] })),
    path: 'hooks.BeforeTool[1].hooks[0].timeout',
    severity: 'error',
    message: /"timeout" must be a number, got a string/,
    dropped: ['strt'],
  },
  {
    name: 'env value a number (warning; passed as its text, as the reference does)',
    where: 'project',
    hooks: bt((m) => ({ hooks: [mark(m, 'envn', { env: { A: 1 } })] })),
    path: 'hooks.BeforeTool[1].hooks[0].env.A',
    severity: 'warning',
    message: /"env" values are strings; 1 is passed as the text "1"/,
    alsoRuns: ['envn'],
  },
  {
    name: 'env value an object',
    where: 'user',
    hooks: bt((m) => ({ hooks: [mark(m, 'envo', { env: { A: { v: 1 } } })] })),
    path: 'hooks.BeforeTool[1].hooks[0].env.A',
    severity: 'error',
    message: /"env" must map names to strings; "A" must be a string, number or boolean, got an object/,
    dropped: ['envo'],
  },
  {
    name: 'env not an object',
    where: 'system',
    hooks: bt((m) => ({ hooks: [mark(m, 'enva', { env: ['A=1'] })] })),
    path: 'hooks.BeforeTool[1].hooks[0].env',
    severity: 'error',
    message: /"env" must be an object, got an array/,
    dropped: ['enva'],
  },
  {
    name: 'sequential not a boolean (reported; the hooks still load)',
    where: 'project',
    hooks: bt((m) => ({ sequential: 'yes', hooks: [mark(m, 'seq')] })),
    path: 'hooks.BeforeTool[1].sequential',
    severity: 'error',
    message: /"sequential" must be true or false/,
    alsoRuns: ['seq'],
  },
  {
    name: 'matcher not a string (definition dropped)',
    where: 'user',
    hooks: bt((m) => ({ matcher: ['run_shell_command'], hooks: [mark(m, 'm5')] })),
    path: 'hooks.BeforeTool[1].matcher',
    severity: 'error',
    message: /"matcher" must be a string/,
    dropped: ['m5'],
  },
  {
    name: 'unknown field on a hook (warning; the hook still runs)',
    where: 'project',
    hooks: bt((m) => ({ hooks: [mark(m, 'extra', { timout: 5 })] })),
    path: 'hooks.BeforeTool[1].hooks[0].timout',
    severity: 'warning',
    message: /unknown field "timout"/,
    alsoRuns: ['extra'],
  },
  {
    name: 'unknown field on a definition (warning; its hooks still run)',
    where: 'system',
    hooks: bt((m) => ({ matchers: 'x', hooks: [mark(m, 'defx')] })),
    path: 'hooks.BeforeTool[1].matchers',
    severity: 'warning',
    message: /unknown field "matchers"/,
    alsoRuns: ['defx'],
  },
];

function build(c: Case): MarkProject {
  return projectWith((m) => {
    const settings = c.settings ? c.settings(m) : { hooks: c.hooks!(m) };
    // The valid hook lives in another file when the broken piece takes the whole block.
    const other = c.settings ? { hooks: { BeforeTool: [good(m)] } } : undefined;
    const files: Record<Where, unknown> = { project: undefined, user: undefined, system: undefined };
    files[c.where] = settings;
    if (other) files[c.where === 'project' ? 'user' : 'project'] = other;
    return files;
  });
}

const fileOf = (p: MarkProject, w: Where) => ({ project: p.projectFile, user: p.userFile, system: p.systemFile })[w];

function find(problems: readonly ConfigProblem[], path: string): ConfigProblem {
  const found = problems.find((x) => x.path === path);
  assert.ok(found, `expected a problem at ${path}; got ${JSON.stringify(problems)}`);
  return found;
}

describe('validation: each problem is reported where it is, and the valid hooks still run', () => {
  for (const c of cases) {
    test(c.name, async () => {
      const p = build(c);
      const engine = p.engine();
      const problem = find(engine.problems, c.path);
      assert.equal(problem.file, fileOf(p, c.where));
      assert.equal(problem.severity, c.severity);
      assert.match(problem.message, c.message);
      const names = engine.hooks().map((e) => e.hook.name);
      for (const d of c.dropped ?? []) assert.ok(!names.includes(d), `${d} should not load`);
      await engine.fire('BeforeTool', { tool_name: 'run_shell_command', tool_input: {} });
      assert.deepEqual(p.ran().sort(), ['good', ...(c.alsoRuns ?? [])].sort());
    });
  }
});

describe('matchers', () => {
  test('an invalid regex on a tool event is reported, the hook loads and compares the tool name exactly', async () => {
    const p = projectWith((m) => ({ project: { hooks: { BeforeTool: [{ matcher: 'read_file(', hooks: [mark(m, 'exact')] }] } } }));
    const engine = p.engine();
    const problem = find(engine.problems, 'hooks.BeforeTool[0].matcher');
    assert.equal(problem.file, p.projectFile);
    assert.match(problem.message, /invalid regular expression .*compared as an exact tool name/);
    await engine.fire('BeforeTool', { tool_name: 'read_file', tool_input: {} });
    assert.deepEqual(p.ran(), [], 'a prefix must not match when compared exactly');
    await engine.fire('BeforeTool', { tool_name: 'read_file(', tool_input: {} });
    assert.deepEqual(p.ran(), ['exact']);
  });

  test('a matcher on an event that ignores it is a warning, and the hook runs for every such event', async () => {
    const p = projectWith((m) => ({ project: { hooks: { BeforeAgent: [{ matcher: 'only-this', hooks: [mark(m, 'agent')] }] } } }));
    const engine = p.engine();
    const problem = find(engine.problems, 'hooks.BeforeAgent[0].matcher');
    assert.equal(problem.severity, 'warning');
    assert.match(problem.message, /BeforeAgent ignores matchers/);
    await engine.fire('BeforeAgent', { prompt: 'something else' });
    assert.deepEqual(p.ran(), ['agent']);
  });

  test('"*" and "" on an event that ignores matchers give no warning', () => {
    const p = projectWith((m) => ({
      project: {
        hooks: {
          BeforeAgent: [
            { matcher: '*', hooks: [mark(m, 'a')] },
            { matcher: ' ', hooks: [mark(m, 'b')] },
          ],
        },
      },
    }));
    assert.deepEqual(p.engine().problems, []);
  });
});

describe('settings file syntax', () => {
  test('invalid JSON is reported with line and column on one line; the other files still load', async () => {
    const p = projectWith((m) => ({
      project: '{\n  "hooks": {\n    "BeforeTool": [\n      { "hooks": [] },\n    ]\n  }\n}\n',
      user: { hooks: { BeforeTool: [good(m)] } },
    }));
    const engine = p.engine();
    assert.equal(engine.problems.length, 1);
    const [problem] = engine.problems;
    assert.equal(problem.file, p.projectFile);
    assert.equal(problem.path, '');
    assert.equal(problem.severity, 'error');
    assert.match(problem.message, /^invalid JSON at line 5, column 5: unexpected "\]".*trailing commas are not allowed/);
    assert.ok(!problem.message.includes('\n'));
    await engine.fire('BeforeTool', { tool_name: 'x', tool_input: {} });
    assert.deepEqual(p.ran(), ['good']);
  });

  test('a V8 "Unexpected token" error (no position from V8) still gets a line and column', () => {
    const p = projectWith(() => ({ user: '{\n  "hooksConfig": { "disabled": [\'x\'] }\n}' }));
    const [problem] = p.engine().problems;
    assert.equal(problem.file, p.userFile);
    assert.match(problem.message, /^invalid JSON at line 2, column 33: unexpected "'"/);
  });

  test('a truncated file reports the end of input', () => {
    const p = projectWith(() => ({ project: '{"hooks": {"BeforeTool": [' }));
    assert.match(p.engine().problems[0].message, /^invalid JSON at line 1, column 27: unexpected end of input/);
  });

  test('// and /* */ comments are allowed, and comment-like text inside strings is kept', async () => {
    const p = projectWith((m) => ({
      project: `// workspace hooks
{
  /* block
     comment */
  "hooks": {
    "BeforeTool": [ // trailing comment
      { "hooks": [ { "type": "command", "name": "slashes", "command": ${JSON.stringify(`echo "//x /*y*/" >/dev/null; ${mark(m, 'slashes').command}`)} } ] }
    ]
  }
}
`,
    }));
    const engine = p.engine();
    assert.deepEqual(engine.problems, []);
    const [entry] = engine.hooks();
    assert.ok(entry.hook.type === 'command' && entry.hook.command.startsWith('echo "//x /*y*/"'));
    await engine.fire('BeforeTool', { tool_name: 'x', tool_input: {} });
    assert.deepEqual(p.ran(), ['slashes']);
  });

  test('settings that are not an object are reported', () => {
    const p = projectWith(() => ({ system: '[]' }));
    const [problem] = p.engine().problems;
    assert.equal(problem.file, p.systemFile);
    assert.match(problem.message, /settings must be a JSON object/);
  });

  test('a bad hooksConfig value is reported and the rest of that layer is still read', async () => {
    const p = projectWith((m) => ({
      user: { hooksConfig: { enabled: 'no', disabled: ['off', 7] }, hooks: { BeforeTool: [good(m), { hooks: [mark(m, 'off')] }] } },
    }));
    const engine = p.engine();
    const enabled = find(engine.problems, 'hooksConfig.enabled');
    assert.match(enabled.message, /"enabled" must be a boolean, got a string/);
    assert.match(find(engine.problems, 'hooksConfig.disabled[1]').message, /must be a string, got a number/);
    await engine.fire('BeforeTool', { tool_name: 'x', tool_input: {} });
    assert.deepEqual(p.ran(), ['good'], '"off" stays disabled although its neighbour values are invalid');
  });

  test('what Gemini CLI reads past the schema is read the same way, with a warning: text timeouts and booleans, a null timeout, "plugin" hooks', async () => {
    const p = projectWith((m) => ({
      user: {
        hooks: {
          BeforeTool: [
            {
              hooks: [
                { ...mark(m, 'text'), timeout: '5000' },
                { ...mark(m, 'none'), timeout: null },
                { ...mark(m, 'plugin'), type: 'plugin' },
              ],
            },
          ],
        },
      },
    }));
    const engine = p.engine();
    assert.deepEqual(
      engine.problems.map((x) => [x.path, x.severity]),
      [
        ['hooks.BeforeTool[0].hooks[0].timeout', 'warning'],
        ['hooks.BeforeTool[0].hooks[1].timeout', 'warning'],
        ['hooks.BeforeTool[0].hooks[2].type', 'warning'],
      ],
    );
    assert.deepEqual(
      engine.hooks().map((e) => [e.hook.type, e.hook.timeout]),
      [
        ['command', 5000],
        ['command', undefined],
        ['command', undefined],
      ],
    );
    await engine.fire('BeforeTool', { tool_name: 'x', tool_input: {} });
    assert.deepEqual(p.ran().sort(), ['none', 'plugin', 'text']);
    const single = projectWith((m) => ({ user: { hooks: { BeforeTool: { hooks: [mark(m, 'one')] } } } }));
    const e1 = single.engine();
    assert.match(find(e1.problems, 'hooks.BeforeTool').message, /one definition, not a list of them/);
    await e1.fire('BeforeTool', { tool_name: 'x', tool_input: {} });
    assert.deepEqual(single.ran(), ['one']);
    const off = projectWith((m) => ({ user: { hooksConfig: { enabled: 'false' }, hooks: { BeforeTool: [good(m)] } } }));
    const e2 = off.engine();
    assert.match(find(e2.problems, 'hooksConfig.enabled').message, /is the text "false"; read as false/);
    await e2.fire('BeforeTool', { tool_name: 'x', tool_input: {} });
    assert.deepEqual(off.ran(), []);
  });

  test('an empty settings file is no problem', () => {
    const p = projectWith(() => ({ project: '', user: '  \n' }));
    assert.deepEqual(p.engine().problems, []);
  });
});
