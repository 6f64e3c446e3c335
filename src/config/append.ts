/**
 * Appends one entry to a list in a JSON-with-comments or YAML configuration, changing nothing
 * else: the user's comments, key order and layout are kept. For `hookline init`.
 */
import { applyEdits, modify, parseTree, findNodeAtLocation } from 'jsonc-parser';
import { parseDocument, isSeq } from 'yaml';
import { parseJsonc, setJsoncValue } from './jsonc.js';

/** `text` with `value` added at the end of the list at `path` (created when absent); throws when something else is there. */
export function appendToList(text: string, format: 'json' | 'yaml', path: readonly string[], value: unknown): string {
  return format === 'json' ? appendJson(text, path, value) : appendYaml(text, path, value);
}

function appendJson(text: string, path: readonly string[], value: unknown): string {
  if (!text.trim())
    return (
      JSON.stringify(
        path.reduceRight<unknown>((v, k) => ({ [k]: v }), [value]),
        null,
        2,
      ) + '\n'
    );
  const parsed = parseJsonc(text);
  if (!parsed.ok) throw new Error(parsed.message);
  const node = findNodeAtLocation(parseTree(text)!, [...path]);
  if (!node) return setJsoncValue(text, path, [value]);
  if (node.type !== 'array') throw new Error(`${path.join('.')} is not a list; not changed`);
  const indent = /\n([ \t]+)"/.exec(text)?.[1] ?? '  ';
  const edits = modify(text, [...path, node.children?.length ?? 0], value, {
    isArrayInsertion: true,
    formattingOptions: { insertSpaces: !indent.startsWith('\t'), tabSize: indent.startsWith('\t') ? 1 : indent.length, eol: '\n' },
  });
  return applyEdits(text, edits);
}

function appendYaml(text: string, path: readonly string[], value: unknown): string {
  const doc = parseDocument(text);
  if (doc.errors.length) throw new Error(`not valid YAML: ${doc.errors[0].message.split('\n')[0]}`);
  // Empty, or only comments: they stay, the list follows.
  if (doc.contents === null) return (text.trim() ? text.replace(/\n*$/, '\n') : '') + dump(path, value);
  const at = doc.getIn(path, true);
  if (at === undefined || at === null) doc.setIn(path, doc.createNode([value]));
  else if (isSeq(at)) at.add(doc.createNode(value));
  else throw new Error(`${path.join('.')} is not a list; not changed`);
  return doc.toString();
}

function dump(path: readonly string[], value: unknown): string {
  const doc = parseDocument('{}');
  doc.contents = doc.createNode(path.reduceRight<unknown>((v, k) => ({ [k]: v }), [value])) as never;
  return doc.toString();
}
