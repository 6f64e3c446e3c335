import type { RedactionSettings } from '../config/load.js';
import { envFrom } from './process.js';

/** Kept whatever their name says: a hook needs these to work at all. */
const ALWAYS_KEPT = new Set([
  'PATH', 'HOME', 'LANG', 'SHELL', 'TMPDIR', 'USER', 'LOGNAME', 'TERM', 'COLORTERM',
  'SYSTEMROOT', 'COMSPEC', 'PATHEXT', 'WINDIR', 'TEMP', 'TMP', 'USERPROFILE', 'SYSTEMDRIVE',
]);

/** Removed whatever their value: connection strings and cloud identities. */
const ALWAYS_REMOVED = new Set([
  'CLIENT_ID', 'DB_URI', 'CONNECTION_STRING', 'AWS_DEFAULT_REGION', 'AZURE_CLIENT_ID', 'AZURE_TENANT_ID',
  'SLACK_WEBHOOK_URL', 'TWILIO_ACCOUNT_SID', 'DATABASE_URL', 'GOOGLE_CLOUD_PROJECT', 'GOOGLE_CLOUD_ACCOUNT',
  'FIREBASE_PROJECT_ID',
]);

const SECRET_NAME = /TOKEN|SECRET|PASSWORD|PASSWD|KEY|AUTH|CREDENTIAL|CREDS|PRIVATE|CERT/i;

/** Values that are secrets whatever the variable is called. */
const SECRET_VALUES = [
  /-----BEGIN (RSA |OPENSSH |EC |PGP |DSA |ENCRYPTED )?PRIVATE KEY-----/i,
  /-----BEGIN CERTIFICATE-----/i,
  /[a-z][a-z0-9+.-]*:\/\/[^:\s/@]{1,1024}:[^@\s]{1,1024}@/i,
  /(ghp|gho|ghu|ghs|ghr|github_pat)_[a-zA-Z0-9_]{36,}/i,
  /AIzaSy[a-zA-Z0-9_\\-]{33}/,
  /AKIA[A-Z0-9]{16}/,
  /eyJ[a-zA-Z0-9_-]{5,}\.eyJ[a-zA-Z0-9_-]{5,}\.[a-zA-Z0-9_-]*/,
  /(sk|rk)_(live|test)_[0-9a-zA-Z]{24}/,
  /xox[abpr]-[a-zA-Z0-9-]+/,
  /sk-(ant-|proj-)?[A-Za-z0-9_-]{20,}/,
];

export function looksSecret(value: string): boolean {
  return SECRET_VALUES.some((re) => re.test(value));
}

/** Strict mode, as in Gemini CLI: on GitHub runners keep only what is known to be safe. */
function isStrict(env: NodeJS.ProcessEnv): boolean {
  return !!env.GITHUB_SHA || env.SURFACE === 'Github';
}

function removed(key: string, value: string | undefined, red: RedactionSettings, allowed: Set<string>, blocked: Set<string>, strict: boolean): boolean {
  const k = key.toUpperCase();
  if (k.startsWith('GEMINI_CLI_')) return false;
  if (value && looksSecret(value)) return true;
  if (k.startsWith('GIT_CONFIG_')) return false;
  if (allowed.has(k)) return false;
  if (blocked.has(k)) return true;
  if (ALWAYS_KEPT.has(k)) return false;
  if (ALWAYS_REMOVED.has(k)) return true;
  if (strict) return true;
  return SECRET_NAME.test(k);
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
  const allowed = new Set(red.allowed.map((k) => k.toUpperCase()));
  const blocked = new Set(red.blocked.map((k) => k.toUpperCase()));
  for (const [k, v] of Object.entries(env)) {
    if (v !== undefined && !removed(k, v, red, allowed, blocked, strict)) out[k] = v;
  }
  return out;
}
