/**
 * What a person reviews of a hook besides its event, matcher, name and command: every other field
 * its fingerprint covers (headers, allowedEnvVars, env, timeout, persistent, prewarm, the plugin
 * or extension it comes from…), in one line each, and which of the user's own variables it would
 * read (an http hook's allowedEnvVars, `$NAME` in its env). Every review surface (trust, trust
 * --check, list, doctor, /hooks, the held-back warnings) shows these same lines.
 */

export interface HookReview {
  /** `timeout: 5000`, `headers: Authorization=Bearer $GH_TOKEN`, … */
  details: string[];
  /** Names of the user's variables the hook would be given. */
  reads: string[];
}

/** Shown elsewhere in every line about a hook (or not a setting): not repeated. */
const PLAIN = new Set(['event', 'matcher', 'name', 'type', 'command', 'prompt', 'url', 'description', 'file', 'configDir']);
/** Objects that hold the hook's own fields: read as if they were at the top. */
const HOLDERS = new Set(['hook', 'handler']);

function show(v: unknown): string {
  if (Array.isArray(v)) return v.map(show).join(', ');
  if (v && typeof v === 'object')
    return Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => (x && typeof x === 'object' ? `${k}: {${show(x)}}` : `${k}=${show(x)}`))
      .join(', ');
  return String(v);
}

const REF = /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g;

/** The names `$NAME` and `${NAME}` refer to in a hook's env values (`$$` is a `$`). */
function referenced(env: unknown): string[] {
  if (!env || typeof env !== 'object') return [];
  const out: string[] = [];
  for (const v of Object.values(env as Record<string, unknown>)) {
    if (v && typeof v === 'object') out.push(...referenced(v));
    else if (typeof v === 'string') for (const m of v.replace(/\$\$/g, '').matchAll(REF)) out.push(m[1] ?? m[2]);
  }
  return out;
}

/** The review of a hook, from the fields its fingerprint covers. */
export function reviewOf(fields: Readonly<Record<string, unknown>>): HookReview {
  const details: string[] = [];
  const reads: string[] = [];
  const walk = (obj: Readonly<Record<string, unknown>>) => {
    for (const [k, v] of Object.entries(obj)) {
      if (HOLDERS.has(k) && v && typeof v === 'object' && !Array.isArray(v)) {
        walk(v as Record<string, unknown>);
        continue;
      }
      if (PLAIN.has(k) || v === undefined || v === null || v === false || (typeof v === 'object' && !Object.keys(v).length)) continue;
      if (k === 'timeoutNs' && typeof v === 'number') details.push(`timeout: ${v / 1e6} ms`);
      else details.push(`${k}: ${show(v)}`);
      if (k === 'allowedEnvVars' && Array.isArray(v)) reads.push(...v.filter((x): x is string => typeof x === 'string'));
      if (k === 'env') reads.push(...referenced(v));
    }
  };
  walk(fields);
  return { details, reads: [...new Set(reads)] };
}

/** The review as lines under a hook (indented by the caller): the details, then what it reads, said loudly. */
export function reviewLines(r: HookReview | undefined): string[] {
  if (!r) return [];
  return [
    ...(r.details.length ? [r.details.join('; ')] : []),
    ...(r.reads.length ? [`READS YOUR VARIABLES: ${r.reads.join(', ')} (given to this hook from your environment)`] : []),
  ];
}
