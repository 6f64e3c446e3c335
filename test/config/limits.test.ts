// The depth and size bounds on what Hookline parses (src/config/limits.ts).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  FileTooLargeError,
  MAX_CONFIG_BYTES,
  MAX_JSON_DEPTH,
  readLimitedText,
  textNestsDeeper,
  valueNestsDeeper,
  yamlNestsDeeper,
} from '../../src/config/limits.js';
import { parseHookText } from '../../src/decide/parse.js';
import { decodeMmResponse } from '../../src/dialects/mm/response.js';
import { findDecisionJson } from '../../src/dialects/spatialagent/decision.js';
import { parseMmConfig } from '../../src/dialects/mm/config.js';

const arrays = (n: number) => '['.repeat(n) + ']'.repeat(n);

describe('textNestsDeeper', () => {
  test('counts nesting up to the limit, inclusive', () => {
    assert.equal(textNestsDeeper(arrays(MAX_JSON_DEPTH)), false);
    assert.equal(textNestsDeeper(arrays(MAX_JSON_DEPTH + 1)), true);
    assert.equal(textNestsDeeper('{"a":'.repeat(MAX_JSON_DEPTH + 1)), true, 'unclosed objects count');
    assert.equal(textNestsDeeper('['.repeat(200_000)), true);
    assert.equal(textNestsDeeper('[]'.repeat(200_000)), false, 'wide is not deep');
    // A text no longer than the bound is read at its length; one character more is counted.
    assert.equal(textNestsDeeper('[[', 2), false);
    assert.equal(textNestsDeeper('[[[', 2), true);
    assert.equal(textNestsDeeper('[[]', 2), false);
  });

  test('brackets inside strings, escaped quotes included, do not count', () => {
    assert.equal(textNestsDeeper(JSON.stringify({ s: '['.repeat(5000) })), false);
    assert.equal(textNestsDeeper(`{"s": "\\"${'{'.repeat(5000)}"}`), false);
  });

  test('with comments (settings files), brackets in comments do not count', () => {
    const text = `{\n// ${'['.repeat(5000)}\n/* ${'{'.repeat(5000)} */ "a": 1}`;
    assert.equal(textNestsDeeper(text, MAX_JSON_DEPTH, true), false);
    assert.equal(textNestsDeeper(text), true, 'strict JSON has no comments');
  });
});

describe('valueNestsDeeper', () => {
  test('walks without recursion, so even 200,000 levels are measured safely', () => {
    assert.equal(valueNestsDeeper(JSON.parse(arrays(200_000))), true);
    assert.equal(valueNestsDeeper(JSON.parse(arrays(MAX_JSON_DEPTH))), false);
    assert.equal(valueNestsDeeper({ a: [1, { b: 'x' }] }, 3), false);
    assert.equal(valueNestsDeeper({ a: [1, { b: [] }] }, 3), true);
    assert.equal(valueNestsDeeper('text'), false);
  });

  test('the limit is below where JSON.stringify and structuredClone overflow', () => {
    const v = JSON.parse('{"a":'.repeat(MAX_JSON_DEPTH) + '1' + '}'.repeat(MAX_JSON_DEPTH));
    assert.doesNotThrow(() => JSON.stringify(v, null, 2));
    assert.doesNotThrow(() => structuredClone(v));
  });
});

describe('yamlNestsDeeper', () => {
  test('flow collections, one-line block nesting and deep indentation', () => {
    assert.equal(yamlNestsDeeper(`a: ${'['.repeat(MAX_JSON_DEPTH + 1)}`), true);
    assert.equal(yamlNestsDeeper(`a: ${'- '.repeat(MAX_JSON_DEPTH + 1)}x`), true);
    assert.equal(yamlNestsDeeper(`a:\n${' '.repeat(MAX_JSON_DEPTH + 1)}b: 1\n`), true);
    assert.equal(
      yamlNestsDeeper('hooks:\n  preToolCall:\n    - command: "echo [[[[ {{{{"\n      matcher: \'^(a|b)[x]$\'\n# [[[[[[[[\n'),
      false,
    );
  });

  test('quoted and commented brackets do not count', () => {
    assert.equal(yamlNestsDeeper(`a: "${'['.repeat(5000)}"\nb: '${'{'.repeat(5000)}'\n# ${'['.repeat(5000)}\n`), false);
  });
});

describe('readLimitedText', () => {
  test('reads a file within the limit; refuses a larger one without reading it all', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-limit-'));
    const small = path.join(dir, 'small.json');
    fs.writeFileSync(small, '{"a": "é"}');
    assert.equal(readLimitedText(small), '{"a": "é"}');
    const big = path.join(dir, 'big.json');
    fs.writeFileSync(big, Buffer.alloc(MAX_CONFIG_BYTES + 1, 0x20));
    assert.throws(
      () => readLimitedText(big),
      (e: unknown) => e instanceof FileTooLargeError && /larger than the 5\.0 MiB limit/.test(e.message),
    );
    assert.throws(() => readLimitedText(path.join(dir, 'missing.json')), { code: 'ENOENT' });
    assert.throws(() => readLimitedText(dir), { code: 'EISDIR' });
  });
});

describe('readers refuse deep output instead of overflowing', () => {
  test('Gemini hook output: an error, and a blocking exit code still blocks', () => {
    assert.deepEqual(parseHookText('['.repeat(200_000), '', 0), { error: 'stdout is nested deeper than 1000 levels; not read' });
    const blocked = parseHookText('', '{'.repeat(200_000), 2);
    assert.equal(blocked.error, 'stderr is nested deeper than 1000 levels; not read');
    assert.equal(blocked.output?.decision, 'deny');
    const doubly = parseHookText(JSON.stringify(`{"x": ${arrays(5000)}}`), '', 0);
    assert.match(doubly.error ?? '', /nested deeper/);
    assert.deepEqual(parseHookText(`{"decision":"deny","x":${arrays(10)}}`, '', 0).output?.decision, 'deny', 'ordinary nesting is read');
  });

  test('mm response: an invalid response', () => {
    const d = decodeMmResponse(arrays(200_000));
    assert.equal(d.ok, false);
    assert.match(!d.ok ? d.message : '', /nested deeper than 1000 levels/);
  });

  test('SpatialAgent: deep candidates are skipped, and text full of unclosed { is searched quickly', () => {
    assert.equal(findDecisionJson(`{"decision":"block","reason":${arrays(5000)}}`), undefined);
    assert.deepEqual(
      findDecisionJson(`${'{'.repeat(200_000)} {"decision":"block","reason":"r"}`) ?? null,
      null,
      'the work is bounded (no answer past the budget)',
    );
    assert.deepEqual(findDecisionJson('{"decision":"block","reason":"r"}'), { decision: 'block', reason: 'r' });
  });

  test('mm configuration: a YAML alias bomb is a configuration error', () => {
    const bomb = [
      'a: &a [x,x,x,x,x,x,x,x,x]',
      ...'bcdefgh'.split('').map((c, i) => `${c}: &${c} [${Array(9).fill(`*${'abcdefg'[i]}`).join(',')}]`),
      'hooks: {}',
    ].join('\n');
    const c = parseMmConfig(bomb, 'agent.yaml');
    assert.equal(c.errors.length, 1);
    assert.match(c.errors[0].message, /^yaml: too many alias expansions/);
    const ok = parseMmConfig('base: &b {command: "echo hi"}\nhooks:\n  preGeneration:\n    - *b\n    - *b\n', 'agent.yaml');
    assert.deepEqual(ok.errors, []);
    assert.equal(ok.hooks.preGeneration.length, 2, 'ordinary aliases still work');
  });
});
