/** `hookline convert`: a hook configuration of one system as another's, and what could not be carried over. */
import { parse as parseYaml } from 'yaml';
import { parseJsonc } from '../../config/jsonc.js';
import { textNestsDeeper, tooDeep, yamlNestsDeeper } from '../../config/limits.js';
import { MAX_YAML_ALIASES } from '../mm/config.js';
import { MAPS } from './maps.js';
import { readHooks } from './read.js';
import { render, writeHooks } from './write.js';

export const CONVERTIBLE: readonly string[] = Object.keys(MAPS);

export class ConvertError extends Error {}

export function parseConfigText(dialect: string, text: string): unknown {
  if (dialect === 'mm') {
    if (yamlNestsDeeper(text)) throw new ConvertError(tooDeep('its YAML'));
    try {
      return parseYaml(text, { maxAliasCount: MAX_YAML_ALIASES }) ?? {};
    } catch (e) {
      throw new ConvertError(`not valid YAML: ${(e as Error).message.split('\n')[0]}`);
    }
  }
  if (textNestsDeeper(text, undefined, true)) throw new ConvertError(tooDeep('its JSON'));
  const r = parseJsonc(text);
  if (!r.ok) throw new ConvertError(r.message);
  return r.value;
}

/** The converted text, and one note per field dropped or approximated. */
export function convertConfig(text: string, from: string, to: string): { text: string; notes: string[] } {
  for (const [flag, d] of [
    ['--from', from],
    ['--to', to],
  ])
    if (!MAPS[d]) throw new ConvertError(`${flag}: unknown dialect "${d}"; expected one of ${CONVERTIBLE.join(', ')}`);
  const read = readHooks(from, parseConfigText(from, text));
  const notes = [...read.notes];
  if (from !== to && read.hooks.length)
    notes.push(`the hook programs are unchanged: they still read ${from}'s input and answer in ${from}'s output format`);
  const out = writeHooks(from, to, read.hooks, notes);
  return { text: render(out), notes };
}
