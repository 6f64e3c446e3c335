/**
 * Variables in an `http` hook's header values: `$VAR` and `${VAR}` (`$$` is a literal `$`). They
 * are filled in only from the hook's `allowedEnvVars` (src/run/http.ts); the check here says
 * which ones a hook names without listing them (they would be sent empty).
 */
export const HEADER_VAR_REF = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

/** The variables header values name that `allowed` does not list. */
export function unlistedHeaderVars(headers: Readonly<Record<string, string>>, allowed: readonly string[]): string[] {
  const out = new Set<string>();
  for (const v of Object.values(headers))
    for (const m of v.matchAll(HEADER_VAR_REF)) {
      const name = m[1] ?? m[2];
      if (name && !allowed.includes(name)) out.add(name);
    }
  return [...out];
}
