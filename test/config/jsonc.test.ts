import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseJson, parseJsonc, setJsoncValue } from '../../src/config/jsonc.js';

const message = (r: ReturnType<typeof parseJsonc>): string => {
  assert.equal(r.ok, false, 'expected an error result');
  return (r as { message: string }).message;
};

describe('parseJsonc and parseJson', () => {
  test('comments are allowed in settings and refused in strict JSON', () => {
    const text = '// top\n{ /* a */ "a": "// not a comment", "b": [1, /* x */ 2] }\n';
    assert.deepEqual(parseJsonc(text), { ok: true, value: { a: '// not a comment', b: [1, 2] } });
    assert.equal(message(parseJson(text)), 'invalid JSON at line 1, column 1: comments are not allowed in JSON');
  });

  test('errors name the line and column and what was expected, on one line', () => {
    assert.equal(
      message(parseJsonc('{\n  "a": [1,\n  ]\n}')),
      'invalid JSON at line 3, column 3: unexpected "]", expected a value (trailing commas are not allowed)',
    );
    assert.equal(
      message(parseJsonc('{"a": 1, /* c */ }')),
      'invalid JSON at line 1, column 18: unexpected "}", expected a double-quoted property name (trailing commas are not allowed)',
    );
    assert.equal(
      message(parseJsonc('{\n  "a": { , }')),
      'invalid JSON at line 2, column 10: unexpected ",", expected a double-quoted property name',
    );
    assert.equal(message(parseJsonc('[ , ]')), 'invalid JSON at line 1, column 3: unexpected ",", expected a value');
    assert.equal(message(parseJsonc('{"a" 1}')), 'invalid JSON at line 1, column 6: unexpected "1", expected \':\'');
    assert.equal(message(parseJsonc('{"a": 1} x')), 'invalid JSON at line 1, column 10: unexpected "x"');
    assert.equal(message(parseJsonc('\r\n\r\n  "a\\q"')), 'invalid JSON at line 3, column 3: a string with an invalid escape');
    assert.equal(message(parseJson('')), 'invalid JSON at line 1, column 1: unexpected end of input, expected a value');
  });

  test('a byte order mark is skipped; "__proto__" is an own key, as with JSON.parse', () => {
    const r = parseJson('\uFEFF{"__proto__": {"x": 1}}');
    assert.ok(r.ok);
    const value = r.value as Record<string, unknown>;
    assert.ok(Object.hasOwn(value, '__proto__'));
    assert.equal(Object.getPrototypeOf(value), Object.prototype);
  });

  test('deep nesting is an error result, never a thrown RangeError', () => {
    const deep = '['.repeat(200_000);
    for (const parse of [parseJson, parseJsonc]) {
      assert.equal(message(parse(deep)), 'invalid JSON at line 1, column 1001: nested more than 1000 levels deep');
      assert.equal(
        message(parse(`${deep}${']'.repeat(200_000)}`)),
        'invalid JSON at line 1, column 1001: nested more than 1000 levels deep',
      );
    }
    assert.ok(parseJson(`${'['.repeat(1000)}${']'.repeat(1000)}`).ok);
    assert.throws(() => setJsoncValue(`{"a": ${'{"b": '.repeat(100_000)}`, ['a'], 1), /nested more than 1000 levels deep/);
  });
});

describe('setJsoncValue', () => {
  test("keeps the user's comments, key order and indentation", () => {
    const text = '// team settings\n{\n    "model": "x", // the usual\n    /* hooks */\n    "hooksConfig": { "enabled": true }\n}\n';
    assert.equal(
      setJsoncValue(text, ['hooksConfig', 'disabled'], ['a']),
      '// team settings\n{\n    "model": "x", // the usual\n    /* hooks */\n    "hooksConfig": {\n        "enabled": true,\n        "disabled": [\n            "a"\n        ]\n    }\n}\n',
    );
  });

  test('creates missing objects and replaces a non-object on the way', () => {
    assert.deepEqual(parseJsonc(setJsoncValue('{"a": 1}', ['hooksConfig', 'disabled'], ['x'])), {
      ok: true,
      value: { a: 1, hooksConfig: { disabled: ['x'] } },
    });
    assert.deepEqual(parseJsonc(setJsoncValue('{"hooksConfig": "off"}', ['hooksConfig', 'disabled'], [])), {
      ok: true,
      value: { hooksConfig: { disabled: [] } },
    });
    assert.equal(setJsoncValue('{}', ['/w'], 'TRUST_FOLDER'), '{\n  "/w": "TRUST_FOLDER"\n}');
  });

  test('replaces an existing value in place and keeps tabs, CRLF and a byte order mark', () => {
    assert.equal(
      setJsoncValue('\uFEFF{\r\n\t"a": [1], // one\r\n\t"b": 2\r\n}', ['a'], []),
      '\uFEFF{\r\n\t"a": [], // one\r\n\t"b": 2\r\n}',
    );
    assert.equal(setJsoncValue('{\n\t"a": {}\n}', ['a', 'b'], 1), '{\n\t"a": {\n\t\t"b": 1\n\t}\n}');
  });

  test('refuses broken text and a non-object file', () => {
    assert.throws(() => setJsoncValue('{ "hooks": { }, }', ['x'], 1), /^Error: invalid JSON at line 1, column 17: /);
    assert.throws(() => setJsoncValue('[1]', ['x'], 1), /settings must be a JSON object/);
  });
});
