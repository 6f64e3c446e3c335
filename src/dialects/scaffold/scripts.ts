/**
 * The hook programs `hookline init` writes: a guard that denies `rm -rf` in a shell command
 * and lets everything else through, in bash, Node (on hookline/sdk when the system sends the
 * event as JSON on stdin) or Python.
 */
import type { ScaffoldProfile } from './profiles.js';

export const LANGS = ['bash', 'node', 'python'] as const;
export type Lang = (typeof LANGS)[number];

export const EXTENSIONS: Record<Lang, string> = { bash: 'sh', node: 'mjs', python: 'py' };

/** How the hook is started: through its interpreter, so it needs no executable bit. */
export function interpreterOf(lang: Lang): string {
  return lang === 'bash' ? 'bash' : lang === 'node' ? 'node' : 'python3';
}

/**
 * A recursive, forced `rm`, however its flags are spelt: `-rf`, `-fr`, `-Rf`, `-r -f`,
 * `--recursive --force`, within one command of the line (up to `;`, `&`, `|` or a line break).
 */
const RM_RF = String.raw`\brm\b(?=[^;&|\n]*\s(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)(?=\s|$))(?=[^;&|\n]*\s(?:-[a-zA-Z]*f[a-zA-Z]*|--force)(?=\s|$))`;

/** A reason without quotes or backslashes: it is written inside string literals of three languages. */
export function denyReason(name: string): string {
  return `rm -rf is not allowed here (${name})`;
}

export function hookScript(lang: Lang, p: ScaffoldProfile, name: string, event: string): string {
  const deny = JSON.stringify(p.deny(denyReason(name)));
  const about = `${name}: a ${p.dialect} ${event} hook written by hookline init. It denies a shell command with rm -rf and lets everything else through. Test it with: hookline test`;
  if (lang === 'bash') {
    const field = 'stdin' in p.reads ? p.reads.stdin : [];
    const read =
      'stdin' in p.reads
        ? [
            `# The event arrives as one JSON object on stdin; only its .${field.join('.')} is checked`,
            '# (with jq, else with the node that runs Hookline).',
            'event=$(cat)',
            'if command -v jq >/dev/null 2>&1; then',
            `  command=$(printf '%s' "$event" | jq -r '.${field.join('.')} // empty | strings' 2>/dev/null)`,
            'else',
            `  command=$(printf '%s' "$event" | node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => { let v; try { v = JSON.parse(s)${field.map((k) => `?.${k}`).join('')}; } catch {} if (typeof v === "string") process.stdout.write(v); });')`,
            'fi',
          ].join('\n')
        : `# The event arrives in variables: $${p.reads.env}.\ncommand=\${${p.reads.env}:-}`;
    return `#!/usr/bin/env bash
# ${about}
set -u
${read}
# One command of the line per row; a row with rm, a recursive flag and a force flag (-rf, -fr, -r -f…).
if printf '%s' "$command" | tr ';&|' '\\n\\n\\n' | grep -E '(^|[^[:alnum:]_.-])rm([^[:alnum:]_.-]|$)' \\
  | grep -E '[[:space:]](-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)([^[:alnum:]-]|$)' \\
  | grep -Eq '[[:space:]](-[a-zA-Z]*f[a-zA-Z]*|--force)([^[:alnum:]-]|$)'; then
  printf '%s\\n' '${deny}'
fi
exit 0
`;
  }
  if (lang === 'node') {
    const test = `/${RM_RF}/.test(command)`;
    if ('stdin' in p.reads) {
      const get = p.reads.stdin.map((k) => `?.[${JSON.stringify(k)}]`).join('');
      return `#!/usr/bin/env node
// ${about}
import { defineHook } from 'hookline/sdk';

await defineHook((input) => {
  const command = String(input${get} ?? '');
  if (${test}) return ${deny};
  // Nothing returned: no objection.
});
`;
    }
    return `#!/usr/bin/env node
// ${about}
// The event arrives in variables: $${p.reads.env}.
const command = process.env.${p.reads.env} ?? '';
if (${test}) process.stdout.write(JSON.stringify(${deny}));
`;
  }
  const read =
    'stdin' in p.reads
      ? `event = json.load(sys.stdin)\nvalue = event\nfor key in ${JSON.stringify(p.reads.stdin)}:\n    value = value.get(key) if isinstance(value, dict) else None\ncommand = value if isinstance(value, str) else ""`
      : `command = os.environ.get(${JSON.stringify(p.reads.env)}, "")`;
  const imports = 'stdin' in p.reads ? 'import json\nimport re\nimport sys' : 'import os\nimport re';
  return `#!/usr/bin/env python3
# ${about}
${imports}

${read}
if re.search(r"${RM_RF}", command):
    print(${JSON.stringify(deny)})
`;
}
