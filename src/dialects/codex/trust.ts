/**
 * Codex's own trust records, written as Codex writes them when the user reviews a hook:
 * `[hooks.state."<key>"] trusted_hash = "sha256:…"` in the user's config.toml. A record that is
 * there is updated in its table; a new one is appended. Nothing else in the file changes.
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

/** The text with `trusted_hash` set for each key (and `enabled` left as it is). Throws when a record cannot be edited in place. */
export function withTrustRecords(text: string, records: ReadonlyArray<{ key: string; hash: string }>): string {
  let out = text;
  const current = () => {
    try {
      const v = parseToml(out) as { hooks?: { state?: Record<string, unknown> } };
      return v.hooks?.state ?? {};
    } catch (e) {
      throw new Error(`not valid TOML (${(e as Error).message.split('\n')[0]}): not changed`);
    }
  };
  for (const { key, hash } of records) {
    if (!Object.hasOwn(current(), key)) {
      const sep = out === '' || out.endsWith('\n\n') ? '' : out.endsWith('\n') ? '\n' : '\n\n';
      out += `${sep}[hooks.state.${tomlString(key)}]\ntrusted_hash = ${tomlString(hash)}\n`;
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
    const body = out.slice(start, end);
    const line = `trusted_hash = ${tomlString(hash)}`;
    const replaced = /^[ \t]*trusted_hash[ \t]*=.*$/m.test(body)
      ? body.replace(/^[ \t]*trusted_hash[ \t]*=.*$/m, line)
      : `\n${line}${body.startsWith('\n') ? '' : '\n'}${body.replace(/^\n/, '')}`;
    out = out.slice(0, start) + replaced + out.slice(end);
  }
  // What was written must read back as the records asked for.
  const state = current();
  for (const { key, hash } of records)
    if ((state[key] as { trusted_hash?: unknown } | undefined)?.trusted_hash !== hash)
      throw new Error(`the record for ${key} did not read back: not changed`);
  return out;
}

/** Writes the records into the user's config.toml, under its lock. */
export function writeTrustRecords(configFile: string, records: ReadonlyArray<{ key: string; hash: string }>): void {
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
