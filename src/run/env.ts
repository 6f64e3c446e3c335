import type { RedactionSettings } from '../config/load.js';
import { envFrom } from './process.js';
import { SECRET_RULES } from './secret-rules.js';

/** Kept whatever their name says: a hook needs these to work at all. */
const ALWAYS_KEPT = new Set([
  'PATH',
  'HOME',
  'LANG',
  'SHELL',
  'TMPDIR',
  'USER',
  'LOGNAME',
  'TERM',
  'COLORTERM',
  'PWD',
  'OLDPWD',
  'SYSTEMROOT',
  'COMSPEC',
  'PATHEXT',
  'WINDIR',
  'TEMP',
  'TMP',
  'USERPROFILE',
  'SYSTEMDRIVE',
]);

/** Removed whatever their value: connection strings and cloud identities. */
const ALWAYS_REMOVED = new Set([
  'CLIENT_ID',
  'DB_URI',
  'CONNECTION_STRING',
  'AWS_DEFAULT_REGION',
  'AZURE_CLIENT_ID',
  'AZURE_TENANT_ID',
  'SLACK_WEBHOOK_URL',
  'TWILIO_ACCOUNT_SID',
  'DATABASE_URL',
  'GOOGLE_CLOUD_PROJECT',
  'GOOGLE_CLOUD_ACCOUNT',
  'FIREBASE_PROJECT_ID',
  'MYSQL_PWD',
  'PGPASSWORD',
  'PGPASSFILE',
  // Git configuration given through the environment can carry `http.extraHeader=Authorization: …`.
  'GIT_CONFIG_COUNT',
  'GIT_CONFIG_PARAMETERS',
  // Credentials under names no rule below catches.
  'SSHPASS',
  'NETRC',
  'NETRC_CONTENT',
  'OPENSSL_PASSIN',
  'OTP_SEED',
  'OTEL_EXPORTER_OTLP_HEADERS',
  'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
  'OTEL_EXPORTER_OTLP_METRICS_HEADERS',
  'OTEL_EXPORTER_OTLP_LOGS_HEADERS',
]);

/**
 * Secret names. Whole words of the name (between `_`), so KEYBOARD_LAYOUT and MONKEY stay;
 * plus the spellings that are secrets wherever they stand in a name (GITHUBTOKEN, MYSECRET).
 */
const SECRET_WORD =
  /(?:^|_)(?:TOKENS?|SECRETS?|PASSWORDS?|PASSWD|PASSPHRASE|PASSCODE|KEYS?|APIKEY|ACCESSKEY|AUTH|AUTHORIZATION|CREDENTIALS?|CREDS|PRIVATE|CERT|COOKIE|WEBHOOK|DSN|SAS|SIGNATURE)(?:_|$)|_(?:PASS|PWD|PW)$/;
const SECRET_SUBSTRING =
  /TOKEN|SECRET|CERT|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|APIKEY|API_KEY|PRIVATE_?KEY|ACCESS_?KEY|CONNECTION_?STRING|CONN_?STR|WEBHOOK/;
const GIT_CONFIG_ENTRY = /^GIT_CONFIG_(?:KEY|VALUE)_\d+$/;

/** Values that are secrets whatever the variable is called, besides the gitleaks rules. */
const SECRET_VALUES = [
  /-----BEGIN (RSA |OPENSSH |EC |PGP |DSA |ENCRYPTED )?PRIVATE KEY-----/i,
  /-----BEGIN CERTIFICATE-----/i,
  // A URL with a password, in any scheme and with or without a user: `redis://:pw@host`.
  /[a-z][a-z0-9+.-]{0,30}:\/\/[^:\s/@]{0,256}:[^@\s/]{1,256}@/i,
  /(ghp|gho|ghu|ghs|ghr|github_pat)_[a-zA-Z0-9_]{36,}/i,
  /AIzaSy[a-zA-Z0-9_\\-]{33}/,
  /AKIA[A-Z0-9]{16}/,
  /eyJ[a-zA-Z0-9_-]{5,}\.eyJ[a-zA-Z0-9_-]{5,}\.[a-zA-Z0-9_-]*/,
  /(sk|rk)_(live|test|prod)_[0-9a-zA-Z]{10}/,
  /xox[abposer]-[a-zA-Z0-9-]+/,
  /sk-(ant-|proj-)?[A-Za-z0-9_-]{20,}/,
  /\bglpat-[A-Za-z0-9_-]{20,}/,
  /\bhf_[A-Za-z0-9]{30,}/,
  /hooks\.slack\.com\/(?:services|workflows|triggers)\//i,
  /(?:discord(?:app)?\.com|discord\.gg)\/api\/webhooks\/\d+\//i,
  /\.webhook\.office\.com\/webhookb2\//i,
  // gitleaks shapes whose own patterns are left out of secret-rules.ts (unbounded repetition):
  // the same prefixes with a bounded length.
  /ops_eyJ[a-zA-Z0-9+/]{250}/,
  /\bEAA[MC][a-zA-Z0-9]{100}/,
  /\b(?:fo1_[\w-]{43}|fm[12][ar]?_[a-zA-Z0-9+/]{100})/,
  /\beyJrIjoi[A-Za-z0-9]{70}/,
  /\bglc_[A-Za-z0-9+/]{32}/i,
  /\bsntrys_eyJpYXQiO[a-zA-Z0-9+/]{10}/,
  /\bxapp-\d-[A-Z0-9]{1,32}-\d{1,20}-[a-z0-9]{16}/i,
  // Connection strings: `Server=…;Password=…`, Azure's `AccountKey=…`, `SharedAccessSignature=…`.
  /(?:^|;)\s*(?:password|pwd|accountkey|sharedaccesskey|sharedaccesssignature)\s*=\s*[^;\s]/i,
  // A password in a URL's query (`jdbc:…?user=a&password=…`) and OpenSSL's `pass:` form.
  /[?&;](?:password|passwd|pwd|pass)=[^&;\s]/i,
  /^pass:./,
  // An `Authorization: Bearer …` header value, as OTLP and curl take them.
  /\bauthorization\s*[=:]\s*(?:bearer|basic|token)\s+\S/i,
];

/** Shannon entropy in bits per character. */
function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/**
 * A value shaped like a random key or token: 32 or more token characters (base64, base64url,
 * hex-free) mixing upper case, lower case and digits, with high entropy. Hex strings (git SHAs,
 * hashes), UUIDs, paths (a leading `/`, `~` or `.`) and lists (`:`, `,`, spaces) do not qualify.
 */
function looksRandomToken(value: string): boolean {
  if (value.length < 32 || value.length > 4096) return false;
  if (!/^[A-Za-z0-9_\-+/=.]+$/.test(value) || /^[/~.]/.test(value) || value.includes('//')) return false;
  if (!/[A-Z]/.test(value) || !/[a-z]/.test(value) || !/[0-9]/.test(value)) return false;
  return entropy(value) >= 4;
}

const compiled = new Map<string, RegExp>();

/**
 * Which gitleaks rule (src/run/secret-rules.ts) the value matches, if any. The rules hold only
 * bounded repetition (checked when they are generated), so a backtracking engine runs them in
 * linear time; each is compiled the first time one of its keywords appears.
 */
export function matchingSecretRule(value: string): string | undefined {
  const lower = value.toLowerCase();
  for (const r of SECRET_RULES) {
    if (!r.keywords.some((k) => lower.includes(k))) continue;
    let re = compiled.get(r.id);
    if (!re) compiled.set(r.id, (re = new RegExp(r.source, `${r.flags}g`)));
    re.lastIndex = 0;
    for (let m = re.exec(value), n = 0; m && n < 100; m = re.exec(value), n++) {
      const secret = m.slice(1).find((g) => g) ?? m[0];
      if (r.entropy === undefined || entropy(secret) >= r.entropy) return r.id;
      if (m[0] === '') re.lastIndex++;
    }
  }
  return undefined;
}

/** Verdicts on values already looked at: an environment is screened again by every load and every dialect's run. */
const verdicts = new Map<string, boolean>();
const MAX_VERDICTS = 4096;
/** Longer values are screened each time rather than kept (an environment can hold megabytes). */
const MAX_KEPT_LENGTH = 4096;

export function looksSecret(value: string): boolean {
  if (value.length < 8) return false;
  const known = verdicts.get(value);
  if (known !== undefined) return known;
  const secret = SECRET_VALUES.some((re) => re.test(value)) || looksRandomToken(value) || matchingSecretRule(value) !== undefined;
  if (value.length <= MAX_KEPT_LENGTH) {
    if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
    verdicts.set(value, secret);
  }
  return secret;
}

/** Strict mode, as in Gemini CLI: on GitHub runners keep only what is known to be safe. */
function isStrict(env: NodeJS.ProcessEnv): boolean {
  return !!env.GITHUB_SHA || env.SURFACE === 'Github';
}

/**
 * Whether a name looks like a secret's. `allowed` and `blocked` come first (names compared in
 * upper case, so `my_token` in settings is MY_TOKEN): a name the user allowed reaches the hook
 * even when its value looks like a token, because the user asked for it.
 */
function removed(key: string, value: string, allowed: Set<string>, blocked: Set<string>, strict: boolean): boolean {
  const k = key.toUpperCase();
  if (allowed.has(k)) return false;
  if (blocked.has(k)) return true;
  if (ALWAYS_KEPT.has(k)) return false;
  if (looksSecret(value)) return true;
  if (ALWAYS_REMOVED.has(k) || GIT_CONFIG_ENTRY.test(k)) return true;
  const secretName = SECRET_WORD.test(k) || SECRET_SUBSTRING.test(k);
  // The prefixes keep the names Gemini CLI itself passes; a name that says it holds a secret
  // (GEMINI_CLI_IDE_AUTH_TOKEN) is removed whatever its prefix.
  if ((k.startsWith('GEMINI_CLI_') || k.startsWith('GIT_CONFIG_')) && !secretName) return false;
  if (strict) return true;
  return secretName;
}

/** Names from settings, compared case-insensitively as Gemini CLI does. */
export function redactionNames(names: readonly string[]): Set<string> {
  return new Set(names.map((k) => k.trim().toUpperCase()));
}

/**
 * The environment a hook starts from. Secrets are removed by default (the seed documents promise
 * a sanitised environment); `security.environmentVariableRedaction.enabled: false` in user or
 * system settings passes everything through, as the reference engine does by default.
 */
export function sanitizeEnv(env: NodeJS.ProcessEnv, red: RedactionSettings): Record<string, string> {
  const strict = isStrict(env);
  if (!red.enabled && !strict) return envFrom(env);
  const out: Record<string, string> = {};
  const allowed = redactionNames(red.allowed);
  const blocked = redactionNames(red.blocked);
  for (const [k, v] of Object.entries(env)) {
    if (v !== undefined && !removed(k, v, allowed, blocked, strict)) out[k] = v;
  }
  return out;
}
