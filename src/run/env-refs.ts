/**
 * A hook's own `env` may name the caller's variables (`"GITHUB_TOKEN": "$GITHUB_TOKEN"`,
 * `"${HOME}/bin"`): they are filled in from Hookline's own environment, for that hook only. This
 * is how a hook is handed a secret the sanitiser removes from every other hook's environment,
 * and it is what Gemini CLI does with `$VAR` in settings values. `$$` is a literal `$`.
 */
const REF = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

export function expandEnvRefs(values: Readonly<Record<string, string>>, from: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) {
    out[k] = v.includes('$')
      ? v.replace(REF, (m, braced?: string, bare?: string) => (m === '$$' ? '$' : (from[braced ?? bare ?? ''] ?? '')))
      : v;
  }
  return out;
}
