// mm (seed 002): the configuration — "Configuration", "Entrée d'un hook", "Exemple",
// "Bannière de démarrage" and "Erreurs de validation", row by row.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  parseMmConfig,
  loadMmConfig,
  formatMmConfigError,
  mmBannerSuffix,
  mmHooksFor,
  defaultMmConfigPath,
  MmConfigReadError,
} from '../../src/dialects/mm/config.js';
import { parseGoDuration, formatGoDuration } from '../../src/dialects/mm/duration.js';
import { tmpDir } from './util.js';

const errorsOf = (yaml: string) => parseMmConfig(yaml, 'cfg/agent.yaml').errors.map((e) => e.message);

describe('mm configuration: the hooks: block', () => {
  test('no hooks: block, an absent event or an empty list run nothing', () => {
    for (const y of ['model: a/b\n', 'hooks:\n', 'hooks:\n  preGeneration: []\n', 'hooks:\n  preToolCall:\n', '']) {
      const c = parseMmConfig(y, 'agent.yaml');
      assert.deepEqual(c.errors, [], y);
      assert.equal(Object.values(c.hooks).flat().length, 0, y);
      assert.equal(mmBannerSuffix(c), '');
    }
  });

  test('each event takes a list, kept in the order written', () => {
    const c = parseMmConfig('hooks:\n  preToolCall:\n    - command: first\n    - command: second\n    - command: third\n', 'agent.yaml');
    assert.deepEqual(
      c.hooks.preToolCall.map((h) => [h.command, h.index]),
      [
        ['first', 0],
        ['second', 1],
        ['third', 2],
      ],
    );
  });

  test("the seed's example loads as written", () => {
    const y = [
      'hooks:',
      '  preGeneration:',
      '    - command: node "$MM_CONFIG_DIR/hooks/no-secrets.js"',
      '      timeout: 5s',
      '      onError: fail',
      '  preToolCall:',
      '    - matcher: ^(bash|write_file|edit_file)$',
      '      command: ./hooks/guard.sh',
      '  postGeneration:',
      '    - command: python3 "$MM_CONFIG_DIR/hooks/log.py"',
      '      onError: ignore',
      '',
    ].join('\n');
    const c = parseMmConfig(y, '/home/moi/projet/agent.yaml');
    assert.deepEqual(c.errors, []);
    const [gen] = c.hooks.preGeneration;
    assert.equal(gen.command, 'node "$MM_CONFIG_DIR/hooks/no-secrets.js"');
    assert.equal(gen.timeoutText, '5s');
    assert.equal(gen.onError, 'fail');
    assert.equal(gen.configDir, '/home/moi/projet');
    const [tool] = c.hooks.preToolCall;
    assert.equal(tool.matcher, '^(bash|write_file|edit_file)$');
    assert.equal(tool.timeoutText, '10s', 'default timeout');
    assert.equal(tool.onError, 'warn', 'default onError');
    assert.equal(c.hooks.postGeneration[0].onError, 'ignore');
    assert.equal(mmBannerSuffix(c), ' | hooks: preGeneration×1 preToolCall×1 postGeneration×1');
  });
});

describe('mm configuration: the keys of a hook', () => {
  test('command: run by sh -c, must not be empty nor blank', () => {
    assert.deepEqual(errorsOf('hooks:\n  preGeneration:\n    - timeout: 5s\n'), ['hooks.preGeneration[0]: command must not be empty']);
    assert.deepEqual(errorsOf('hooks:\n  postAsk:\n    - command: "  \\t "\n'), ['hooks.postAsk[0]: command must not be empty']);
  });

  test('matcher: default "" = every tool or agent; unanchored Go syntax', () => {
    const c = parseMmConfig(
      'hooks:\n  preToolCall:\n    - command: any\n    - matcher: bash\n      command: loose\n    - matcher: ^bash$\n      command: exact\n  preAsk:\n    - matcher: ^exp\n      command: ask\n',
      'agent.yaml',
    );
    const names = (t: string) => mmHooksFor(c, 'preToolCall', t).map((h) => h.command);
    assert.deepEqual(names('bash'), ['any', 'loose', 'exact']);
    assert.deepEqual(names('my_bash'), ['any', 'loose'], '`bash` also matches `my_bash`');
    assert.deepEqual(names('read_file'), ['any']);
    assert.deepEqual(
      mmHooksFor(c, 'preAsk', 'expert').map((h) => h.command),
      ['ask'],
    );
    assert.deepEqual(
      mmHooksFor(c, 'preAsk', 'the-expert').map((h) => h.command),
      [],
    );
  });

  test('matcher: RE2 syntax as Go reads it (no lookahead, (?i) flags)', () => {
    const c = parseMmConfig('hooks:\n  postToolCall:\n    - matcher: (?i)^BASH$\n      command: x\n', 'agent.yaml');
    assert.equal(mmHooksFor(c, 'postToolCall', 'bash').length, 1);
    assert.deepEqual(errorsOf('hooks:\n  postToolCall:\n    - matcher: ^(?!bash)\n      command: x\n'), [
      'hooks.postToolCall[0]: matcher: error parsing regexp: invalid or unsupported Perl syntax: `(?!`',
    ]);
  });

  test('timeout: a duration, default 10s, 0 = the default, must be >= 0', () => {
    const t = (v: string) => {
      const c = parseMmConfig(`hooks:\n  preGeneration:\n    - command: x\n      timeout: ${v}\n`, 'agent.yaml');
      return c.errors.length ? c.errors[0].message : c.hooks.preGeneration[0].timeoutText;
    };
    assert.equal(t('5s'), '5s');
    assert.equal(t('500ms'), '500ms');
    assert.equal(t('1m30s'), '1m30s');
    assert.equal(t('90s'), '1m30s', 'printed back the Go way');
    assert.equal(t('0'), '10s');
    assert.equal(t('0s'), '10s');
    assert.equal(t('"0"'), '10s');
    assert.equal(t('-1s'), 'hooks.preGeneration[0]: timeout must be >= 0');
    assert.equal(t('-1'), 'hooks.preGeneration[0]: timeout must be >= 0');
    assert.equal(t('5'), 'hooks.preGeneration[0]: timeout: time: missing unit in duration "5"');
    assert.equal(t('5d'), 'hooks.preGeneration[0]: timeout: time: unknown unit "d" in duration "5d"');
    assert.equal(t('soon'), 'hooks.preGeneration[0]: timeout: time: invalid duration "soon"');
  });

  test('onError: fail, warn or ignore; default warn', () => {
    const c = parseMmConfig(
      'hooks:\n  preAsk:\n    - command: a\n    - command: b\n      onError: fail\n    - command: c\n      onError: ignore\n',
      'agent.yaml',
    );
    assert.deepEqual(
      c.hooks.preAsk.map((h) => h.onError),
      ['warn', 'fail', 'ignore'],
    );
  });
});

describe('mm Go durations', () => {
  test('parse as time.ParseDuration', () => {
    const ns = (s: string) => {
      const r = parseGoDuration(s);
      return r.ok ? r.ns : r.message;
    };
    assert.equal(ns('1.5s'), 1_500_000_000);
    assert.equal(ns('1h2m3s'), 3_723_000_000_000);
    assert.equal(ns('250us'), 250_000);
    assert.equal(ns('250µs'), 250_000);
    assert.equal(ns('.5s'), 500_000_000);
    assert.equal(ns('-2m'), -120_000_000_000);
    assert.equal(ns(''), 'time: invalid duration ""');
    assert.equal(ns('.s'), 'time: invalid duration ".s"');
  });

  test('print as Duration.String', () => {
    const S = 1e9;
    assert.equal(formatGoDuration(10 * S), '10s');
    assert.equal(formatGoDuration(90 * S), '1m30s');
    assert.equal(formatGoDuration(3600 * S), '1h0m0s');
    assert.equal(formatGoDuration(1.5 * S), '1.5s');
    assert.equal(formatGoDuration(0.3 * S), '300ms');
    assert.equal(formatGoDuration(1500), '1.5µs');
    assert.equal(formatGoDuration(0), '0s');
  });
});

describe('mm start-up banner', () => {
  test('one entry per event that has hooks, in the seed order, whatever the file order', () => {
    const c = parseMmConfig(
      'hooks:\n  postGeneration:\n    - command: g\n  preToolCall:\n    - command: t\n  postToolCall:\n    - command: p\n  preGeneration:\n    - command: a\n    - command: b\n  postAsk: []\n',
      'agent.yaml',
    );
    assert.equal(mmBannerSuffix(c), ' | hooks: preGeneration×2 preToolCall×1 postToolCall×1 postGeneration×1');
    const asks = parseMmConfig('hooks:\n  postAsk:\n    - command: x\n  preAsk:\n    - command: y\n', 'agent.yaml');
    assert.equal(mmBannerSuffix(asks), ' | hooks: preAsk×1 postAsk×1');
  });
});

describe('mm validation errors: the exact texts', () => {
  test('unknown event', () => {
    assert.deepEqual(errorsOf('hooks:\n  preToolcall:\n    - command: x\n'), [
      'hooks: unknown event "preToolcall" (want one of preGeneration, preToolCall, postToolCall, postGeneration, preAsk, postAsk)',
    ]);
  });

  test('command must not be empty', () => {
    assert.deepEqual(errorsOf('hooks:\n  preToolCall:\n    - command: ok\n    - command: ""\n'), [
      'hooks.preToolCall[1]: command must not be empty',
    ]);
  });

  test('matcher is only for the tool and ask events', () => {
    assert.deepEqual(
      errorsOf('hooks:\n  preGeneration:\n    - matcher: x\n      command: a\n  postGeneration:\n    - matcher: y\n      command: b\n'),
      [
        'hooks.preGeneration[0]: matcher is only for preToolCall, postToolCall, preAsk and postAsk',
        'hooks.postGeneration[0]: matcher is only for preToolCall, postToolCall, preAsk and postAsk',
      ],
    );
  });

  test('matcher that does not compile: the Go regexp message', () => {
    assert.deepEqual(errorsOf('hooks:\n  preToolCall:\n    - matcher: (bash\n      command: a\n'), [
      'hooks.preToolCall[0]: matcher: error parsing regexp: missing closing ): `(bash`',
    ]);
    assert.deepEqual(errorsOf('hooks:\n  preAsk:\n    - matcher: "*x"\n      command: a\n'), [
      'hooks.preAsk[0]: matcher: error parsing regexp: missing argument to repetition operator: `*`',
    ]);
  });

  test('timeout must be >= 0', () => {
    assert.deepEqual(errorsOf('hooks:\n  postToolCall:\n    - command: a\n      timeout: -5s\n'), [
      'hooks.postToolCall[0]: timeout must be >= 0',
    ]);
  });

  test('onError must be fail, warn or ignore', () => {
    assert.deepEqual(errorsOf('hooks:\n  postAsk:\n    - command: a\n      onError: stop\n'), [
      'hooks.postAsk[0]: onError must be "fail", "warn" or "ignore"',
    ]);
  });

  test('printed [config error: <path>: <message>]; a configuration with errors runs nothing', () => {
    const c = parseMmConfig('hooks:\n  preGeneration:\n    - command: ok\n    - command: ""\n', '../agent.yaml');
    assert.deepEqual(c.errors.map(formatMmConfigError), [
      '[config error: ../agent.yaml: hooks.preGeneration[1]: command must not be empty]',
    ]);
    assert.equal(c.hooks.preGeneration.length, 0);
  });

  test('YAML that does not parse', () => {
    const [e] = errorsOf('hooks:\n  preGeneration:\n    - command: a\n   - command: b\n');
    assert.match(e, /^yaml: line \d+: /);
  });

  test('wrong shapes are reported, not crashed on', () => {
    assert.deepEqual(errorsOf('hooks:\n  - command: a\n'), ['hooks: want a mapping of events, got a list']);
    assert.deepEqual(errorsOf('hooks:\n  preGeneration:\n    command: a\n'), ['hooks.preGeneration: want a list of hooks, got a mapping']);
    assert.deepEqual(errorsOf('hooks:\n  preGeneration:\n    - echo hi\n'), [
      'hooks.preGeneration[0]: want a mapping (command, matcher, timeout, onError), got a string',
    ]);
  });
});

describe('mm configuration files', () => {
  test('the usual place: $MM_CONFIG, else agent.yaml in the folder', () => {
    assert.equal(defaultMmConfigPath('/p', { MM_CONFIG: '/etc/mm.yaml' }), '/etc/mm.yaml');
    assert.equal(defaultMmConfigPath('/p', {}), path.join('/p', 'agent.yaml'));
  });

  test('loadMmConfig: MM_CONFIG_DIR is the absolute folder of the file; a missing file is an error', () => {
    const dir = tmpDir();
    fs.mkdirSync(path.join(dir, 'conf'));
    fs.writeFileSync(path.join(dir, 'conf', 'agent.yaml'), 'hooks:\n  preGeneration:\n    - command: x\n');
    const c = loadMmConfig(path.join(dir, 'conf', 'agent.yaml'));
    assert.equal(c.hooks.preGeneration[0].configDir, path.join(dir, 'conf'));
    assert.equal(c.absFile, path.join(dir, 'conf', 'agent.yaml'));
    assert.throws(() => loadMmConfig(path.join(dir, 'none.yaml')), MmConfigReadError);
  });
});
