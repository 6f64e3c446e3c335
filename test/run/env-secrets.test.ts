// The sanitiser against a corpus: secret shapes removed whatever the variable is called (the
// gitleaks-derived rules in src/run/secret-rules.ts among them), secret names removed whatever
// their value, harmless look-alikes kept. Tokens are assembled from parts so that this file
// itself holds no string a scanner would flag.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { looksSecret, matchingSecretRule, sanitizeEnv } from '../../src/run/env.js';
import { SECRET_RULES } from '../../src/run/secret-rules.js';

const on = { enabled: true, allowed: [] as string[], blocked: [] as string[] };
const rep = (s: string, n: number) => s.repeat(Math.ceil(n / s.length)).slice(0, n);
const ALNUM = 'aB3dE5fG7hJ9kL2mN4pQ6rS8tU1vW0xYz';
const HEX = '9f3c1a7e5b2d8064';
const LOWER = 'qwertzuiopasdfghjklyxcvbnm';

/** Values that are secrets whatever the variable is called. */
const SECRET_VALUES: Record<string, string> = {
  githubPat: 'gh' + 'p_' + rep(ALNUM, 36),
  githubFineGrained: 'github' + '_pat_' + rep(ALNUM, 82),
  githubOauth: 'gh' + 'o_' + rep(ALNUM, 36),
  githubApp: 'gh' + 's_' + rep(ALNUM, 36),
  gitlabPat: 'gl' + 'pat-' + rep(ALNUM, 20),
  gitlabRunner: 'gl' + 'rt-' + rep(ALNUM, 20),
  gitlabDeploy: 'gl' + 'dt-' + rep(ALNUM, 20),
  huggingFace: 'h' + 'f_' + rep(LOWER, 34),
  awsAccessKey: 'AK' + 'IA' + 'Z7QW3ERT5YUI2OPA',
  awsSessionKey: 'AS' + 'IA' + 'Z7QW3ERT5YUI2OPA',
  awsSecretShape: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCY' + 'zz12ab34cd',
  googleApiKey: 'AI' + 'zaSy' + rep(ALNUM, 33),
  stripeLive: 'sk' + '_live_' + rep(ALNUM, 24),
  stripeRestricted: 'rk' + '_test_' + rep(ALNUM, 24),
  slackBot: 'xo' + 'xb-' + '1234567890123-1234567890123-' + rep(ALNUM, 24),
  slackUser: 'xo' + 'xp-' + '1234567890-1234567890-1234567890-' + rep(ALNUM, 32),
  slackApp: 'xa' + 'pp-1-' + 'A0B1C2D3E4F-1234567890-' + rep('a1b2c3', 30),
  slackWebhook: 'https://hooks.' + 'slack.com/services/T0000AAAA/B0000BBBB/' + rep(ALNUM, 24),
  discordWebhook: 'https://discord.com/api/' + 'webhooks/123456789012345678/' + rep(ALNUM, 60),
  teamsWebhook:
    'https://contoso.webhook.office.com/webhookb2/' +
    '12345678-1234-1234-1234-123456789abc@12345678-1234-1234-1234-123456789abc/IncomingWebhook/' +
    rep(HEX, 32) +
    '/12345678-1234-1234-1234-123456789abc',
  anthropic: 'sk' + '-ant-api03-' + rep(ALNUM, 93) + 'AA',
  openaiProject: 'sk' + '-proj-' + rep(ALNUM, 48),
  jwt: 'ey' + 'JhbGciOiJIUzI1NiJ9.' + 'ey' + 'JzdWIiOiIxMjM0NTY3ODkwIn0.' + rep(ALNUM, 43),
  rsaKey: '-----BEGIN RSA ' + 'PRIVATE KEY-----\nMIIEpAIBAAKCAQEA' + rep(ALNUM, 64) + '\n-----END RSA PRIVATE KEY-----',
  opensshKey: '-----BEGIN OPENSSH ' + 'PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA' + rep(ALNUM, 64),
  certificate: '-----BEGIN ' + 'CERTIFICATE-----\nMIIC' + rep(ALNUM, 40),
  postgresUrl: 'postgres://app:' + 's3cr3t-pw' + '@db.internal:5432/app',
  redisNoUser: 'redis://:' + 'hunter2' + '@cache.internal:6379/0',
  mongoSrv: 'mongodb+srv://admin:' + 'Pa55word' + '@cluster0.example.net/db',
  amqp: 'amqp://guest:' + 'guest-pw' + '@rabbit:5672/',
  httpsCredentials: 'https://alice:' + 'hunter2' + '@example.com/repo.git',
  azureStorage: 'DefaultEndpointsProtocol=https;AccountName=acct;Account' + 'Key=' + rep(ALNUM, 86) + '==;EndpointSuffix=core.windows.net',
  sqlServer: 'Server=tcp:db.example.net,1433;Database=app;User ID=app;Pass' + 'word=' + 'Tr0ub4dor&3;Encrypt=true',
  serviceBusSas: 'Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccess' + 'Key=' + rep(ALNUM, 44) + '=',
  npmToken: 'np' + 'm_' + rep(ALNUM, 36),
  pypiToken: 'py' + 'pi-AgEIcHlwaS5vcmc' + rep(ALNUM, 60),
  sendgrid: 'S' + 'G.' + rep(ALNUM, 22) + '.' + rep(ALNUM, 43),
  shopify: 'sh' + 'pat_' + rep(HEX, 32),
  digitalocean: 'do' + 'p_v1_' + rep(HEX, 64),
  ageKey: 'AGE-' + 'SECRET-KEY-1' + rep('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 58),
  vault: 'hv' + 's.' + rep(ALNUM, 95),
  linear: 'lin' + '_api_' + rep(ALNUM, 40),
  perplexity: 'pp' + 'lx-' + rep(ALNUM, 48),
  databricks: 'da' + 'pi' + rep(HEX, 32),
  pulumi: 'pu' + 'l-' + rep(HEX, 40),
  rubygems: 'ruby' + 'gems_' + rep(HEX, 48),
  sentryUser: 'sntr' + 'yu_' + rep(HEX, 64),
  grafanaServiceAccount: 'gl' + 'sa_' + rep(ALNUM, 32) + '_' + rep(HEX, 8),
  doppler: 'dp' + '.pt.' + rep(ALNUM, 43),
  randomToken: rep('Zx9Qw2Er4Ty6Ui8Op0AsDfGhJkL', 40),
  jdbcQueryPassword: 'jdbc:postgresql://db:5432/app?user=app&pass' + 'word=' + 'hunter2',
  opensslPassin: 'pa' + 'ss:' + 'hunter2',
  bearerHeader: 'author' + 'ization=Bearer ' + rep(HEX, 24),
};

/** Names that are secrets whatever their value. */
const SECRET_NAMES = [
  'MYSQL_PWD',
  'DB_PASS',
  'SMTP_PWD',
  'REDIS_PASS',
  'APP_CONNECTION_STRING',
  'AZURE_STORAGE_CONNECTION_STRING',
  'GIT_CONFIG_KEY_0',
  'GIT_CONFIG_VALUE_0',
  'GIT_CONFIG_COUNT',
  'GIT_CONFIG_PARAMETERS',
  'GITHUB_TOKEN',
  'my_api_key',
  'AWS_SECRET_ACCESS_KEY',
  'DB_PASSWORD',
  'SENTRY_DSN',
  'SLACK_WEBHOOK_URL',
  'DATABASE_URL',
  'NPM_AUTH',
  'PGPASSWORD',
  'SSHPASS',
  'DB_PW',
  'NETRC_CONTENT',
  'OPENSSL_PASSIN',
  'OTP_SEED',
  'OTEL_EXPORTER_OTLP_HEADERS',
];

/** Harmless look-alikes: kept. */
const HARMLESS: Record<string, string> = {
  PATH_LIKE: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  UUID: '123e4567-e89b-42d3-a456-426614174000',
  UUID_UPPER: '123E4567-E89B-42D3-A456-426614174000',
  GIT_SHA: '3f786850e387550fdab836ed7e6dc881de23001b',
  SHORT_SHA: '3f78685',
  SHA256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  BASE64_SMALL: Buffer.from('hello world').toString('base64'),
  BASE64_SENTENCE: Buffer.from('just some text').toString('base64'),
  URL_PLAIN: 'https://example.com/path?query=1&b=2',
  URL_USER_ONLY: 'https://user@example.com/repo.git',
  URL_PORT: 'http://localhost:3000/callback',
  URL_PORT_AT_PATH: 'https://registry.example.com:443/@scope/pkg',
  GIT_SSH: 'git@github.com:org/repo.git',
  KEYBOARD_LAYOUT: 'us',
  MONKEY: '1',
  TURKEY: 'roast',
  EMAIL: 'someone@example.com',
  HOST_PORT: 'localhost:8080',
  IMAGE: 'ghcr.io/org/image:1.2.3',
  SEMVER: '1.24.3-beta.1',
  LS_COLORS: 'rs=0:di=01;34:ln=01;36:mh=00:pi=40;33',
  JSON_VALUE: '{"a":1,"b":[true,false]}',
  EDITOR: 'vim',
  LANG: 'en_US.UTF-8',
  DATE: '2026-11-30T12:00:00Z',
  CAMEL: 'ThisIsAVeryLongCamelCaseIdentifierWithoutDigits',
  LOWER_ALNUM: 'abcdefghijklmnopqrstuvwxyz0123456789abcdef',
  SENTENCE: 'The key is in the drawer, the token is on the desk.',
  NODE_OPTIONS: '--max-old-space-size=4096',
  HOME_PATH: '/home/someone/projects/My-Project_2024/src/components/Button',
  GEMINI_CLI_IDE_WORKSPACE_PATH: '/home/someone/work',
  PWD: '/home/someone/work',
  OLDPWD: '/home/someone',
  GIT_CONFIG_GLOBAL: '/home/someone/.gitconfig',
  PASS_THROUGH: 'yes',
};

describe('secret corpus', () => {
  test(`at least 40 secret shapes and 20 look-alikes`, () => {
    assert.ok(Object.keys(SECRET_VALUES).length >= 40);
    assert.ok(Object.keys(HARMLESS).length >= 20);
  });

  for (const [name, value] of Object.entries(SECRET_VALUES)) {
    test(`value removed whatever the name: ${name}`, () => {
      assert.ok(looksSecret(value), `${name} is not recognised`);
      const out = sanitizeEnv({ HARMLESS_NAME: value, GEMINI_CLI_SETTING: value, PLAIN: 'x' }, on);
      assert.deepEqual(out, { PLAIN: 'x' }, 'neither a plain name nor the GEMINI_CLI_ prefix keeps a token');
    });
  }

  for (const name of SECRET_NAMES) {
    test(`name removed whatever the value: ${name}`, () => {
      assert.deepEqual(sanitizeEnv({ [name]: 'value', PLAIN: 'x' }, on), { PLAIN: 'x' });
    });
  }

  for (const [name, value] of Object.entries(HARMLESS)) {
    test(`look-alike kept: ${name}`, () => {
      assert.equal(looksSecret(value), false, `${name}=${value} taken for a secret (rule ${matchingSecretRule(value) ?? 'built-in'})`);
      assert.deepEqual(sanitizeEnv({ [name]: value }, on), { [name]: value });
    });
  }
});

describe('gitleaks rules as data', () => {
  test('every rule compiles in JavaScript with bounded repetition and has keywords; prefixed tokens are attributed to their rule', () => {
    assert.ok(SECRET_RULES.length > 90);
    for (const r of SECRET_RULES) {
      assert.ok(r.keywords.length > 0, r.id);
      assert.doesNotThrow(() => new RegExp(r.source, r.flags), r.id);
      // No `*`, `+` or `{n,}` outside a character class or an escape.
      const bare = r.source.replace(/\\./g, '').replace(/\[(?:[^\]\\]|\\.)*\]/g, '');
      assert.doesNotMatch(bare, /[*+]|\{\d+,\}/, r.id);
    }
    assert.equal(matchingSecretRule(SECRET_VALUES.gitlabPat), 'gitlab-pat');
    assert.equal(matchingSecretRule(SECRET_VALUES.huggingFace), 'huggingface-access-token');
    assert.equal(matchingSecretRule(SECRET_VALUES.slackWebhook), 'slack-webhook-url');
    assert.equal(matchingSecretRule(SECRET_VALUES.doppler), 'doppler-api-token');
  });

  test('a hostile value cannot make the scan slow (RE2 is linear)', () => {
    const env: Record<string, string> = {};
    for (let i = 0; i < 50; i++) env[`V${i}`] = 'key=' + 'a'.repeat(5000) + '!' + 'token:'.repeat(500);
    const out = sanitizeEnv(env, on);
    assert.equal(typeof out, 'object');
  });
});

describe('allowed and blocked', () => {
  test('names are compared case-insensitively', () => {
    const env = { MY_API_KEY: 'k', Harmless_Var: 'h', other: 'o' };
    assert.deepEqual(sanitizeEnv(env, { enabled: true, allowed: ['my_api_key'], blocked: ['HARMLESS_VAR'] }), {
      MY_API_KEY: 'k',
      other: 'o',
    });
    assert.deepEqual(sanitizeEnv(env, { enabled: true, allowed: ['My_Api_Key'], blocked: ['harmless_var'] }), {
      MY_API_KEY: 'k',
      other: 'o',
    });
  });

  test('an allowed name reaches the hook even when its value looks like a token', () => {
    const token = SECRET_VALUES.githubPat;
    assert.deepEqual(sanitizeEnv({ DEPLOY_TOKEN: token, OTHER: token }, { enabled: true, allowed: ['deploy_token'], blocked: [] }), {
      DEPLOY_TOKEN: token,
    });
  });

  test('blocked wins over the always-kept list only when named; allowed wins over blocked', () => {
    assert.deepEqual(sanitizeEnv({ TERM: 'xterm', LANG: 'C' }, { enabled: true, allowed: [], blocked: ['term'] }), { LANG: 'C' });
    assert.deepEqual(sanitizeEnv({ X: '1' }, { enabled: true, allowed: ['x'], blocked: ['X'] }), { X: '1' });
  });
});
