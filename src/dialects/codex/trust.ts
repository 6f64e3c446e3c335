/**
 * Codex's own trust records, written as Codex writes them when the user reviews a hook:
 * `[hooks.state."<key>"] trusted_hash = "sha256:…"` in the user's config.toml, and for a plugin's
 * hook `trusted_content_hash = "sha256:…"` (the plugin's contents). A record that is there is
 * updated in its table; a new one is appended. Nothing else in the file changes.
 */
import { parse as parseToml } from 'smol-toml';
import { updateFile } from '../../config/write.js';

/** A TOML basic string. */
export function tomlString(s: string): string {
  return `"${s.replace(/[\\"\u0000-\u001f\u007f]/g, (c) => {
    if (c === '\\') return '\\\\';
    if (c === '"') return '\\"';
    if (c === '\n') return '\\n';
    if (c === '\t') return '\\t';
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  })}"`;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One record to write: the hook's hash, and a plugin's contents. */
export interface TrustRecord {
  key: string;
  hash: string;
  contentHash?: string;
}

/** `name = "value"` lines set in a table's body: replaced where they are, else added at its top. */
function setLines(body: string, lines: ReadonlyArray<[string, string]>): string {
  let out = body;
  const added: string[] = [];
  for (const [name, value] of lines) {
    const line = `${name} = ${tomlString(value)}`;
    const re = new RegExp(`^[ \\t]*${name}[ \\t]*=.*$`, 'm');
    if (re.test(out)) out = out.replace(re, line);
    else added.push(line);
  }
  if (!added.length) return out;
  // The body starts after its table's header: the new lines go right under it.
  return `\n${added.join('\n')}\n${out.replace(/^\n/, '')}`;
}

/** The text with `trusted_hash` (and a plugin's `trusted_content_hash`) set for each key, `enabled` left as it is. Throws when a record cannot be edited in place. */
export function withTrustRecords(text: string, records: ReadonlyArray<TrustRecord>): string {
  let out = text;
  const current = () => {
    try {
      const v = parseToml(out) as { hooks?: { state?: Record<string, unknown> } };
      return v.hooks?.state ?? {};
    } catch (e) {
      throw new Error(`not valid TOML (${(e as Error).message.split('\n')[0]}): not changed`);
    }
  };
  for (const { key, hash, contentHash } of records) {
    const lines: Array<[string, string]> = [
      ['trusted_hash', hash],
      ...(contentHash ? [['trusted_content_hash', contentHash] as [string, string]] : []),
    ];
    if (!Object.hasOwn(current(), key)) {
      const sep = out === '' || out.endsWith('\n\n') ? '' : out.endsWith('\n') ? '\n' : '\n\n';
      out += `${sep}[hooks.state.${tomlString(key)}]\n${lines.map(([n, v]) => `${n} = ${tomlString(v)}\n`).join('')}`;
      continue;
    }
    const header = new RegExp(
      `^[ \\t]*\\[[ \\t]*hooks[ \\t]*\\.[ \\t]*state[ \\t]*\\.[ \\t]*${escapeRe(tomlString(key))}[ \\t]*\\][ \\t]*(#.*)?$`,
      'm',
    );
    const m = header.exec(out);
    if (!m) throw new Error(`its record for ${key} is not written as a [hooks.state."…"] table: not changed (edit it by hand)`);
    const start = m.index + m[0].length;
    const next = /^[ \t]*\[/m.exec(out.slice(start));
    const end = next ? start + next.index : out.length;
    out = out.slice(0, start) + setLines(out.slice(start, end), lines) + out.slice(end);
  }
  // What was written must read back as the records asked for.
  const state = current();
  for (const { key, hash, contentHash } of records) {
    const r = state[key] as { trusted_hash?: unknown; trusted_content_hash?: unknown } | undefined;
    if (r?.trusted_hash !== hash || (contentHash !== undefined && r.trusted_content_hash !== contentHash))
      throw new Error(`the record for ${key} did not read back: not changed`);
  }
  return out;
}

/** Writes the records into the user's config.toml, under its lock. */
export function writeTrustRecords(configFile: string, records: ReadonlyArray<TrustRecord>): void {
  if (!records.length) return;
  try {
    updateFile(configFile, (text) => withTrustRecords(text, records));
  } catch (e) {
    throw new Error(`Codex config ${configFile}: ${(e as Error).message}`);
  }
}

/** The user's config.toml trusting a project (`[projects."<dir>"] trust_level = "trusted"`), for a `hookline test` sandbox. */
export function writeProjectTrust(configFile: string, dir: string): void {
  try {
    updateFile(configFile, (text) => {
      const v = parseToml(text) as { projects?: Record<string, { trust_level?: unknown }> };
      if (v.projects?.[dir]?.trust_level === 'trusted') return undefined;
      if (v.projects?.[dir] !== undefined) throw new Error(`its [projects.${tomlString(dir)}] says otherwise: not changed`);
      const sep = text === '' || text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n';
      return `${text}${sep}[projects.${tomlString(dir)}]\ntrust_level = "trusted"\n`;
    });
  } catch (e) {
    throw new Error(`Codex config ${configFile}: ${(e as Error).message}`);
  }
}
