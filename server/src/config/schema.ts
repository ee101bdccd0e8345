import { z } from 'zod';
import { isKnownTimeZone } from '../http/datetime.js';

/**
 * The one configuration schema. Section and key names follow the spec's configuration sections
 * so that ASP.NET-style environment variables (`Saas__Auth__CaptchaEnabled`) map one to one.
 */

/** Environment values are text; `false`, `0`, `no` and `off` must not become true. */
const bool = (fallback: boolean) =>
  z
    .preprocess((v) => {
      if (typeof v !== 'string') return v;
      const s = v.trim().toLowerCase();
      if (['true', '1', 'yes', 'on'].includes(s)) return true;
      if (['false', '0', 'no', 'off', ''].includes(s)) return false;
      return v;
    }, z.boolean())
    .default(fallback);

const int = (fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

/** Arrays come as `Key__0`, `Key__1` (an object with numeric keys) or as a comma list. */
const stringList = (fallback: string[]) =>
  z
    .preprocess((v) => {
      if (typeof v === 'string')
        return v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
      if (v && typeof v === 'object' && !Array.isArray(v)) {
        return Object.entries(v as Record<string, unknown>)
          .sort(([a], [b]) => Number(a) - Number(b))
          .map(([, item]) => item);
      }
      return v;
    }, z.array(z.string()))
    .default(fallback);

/** An empty environment value (`Mail__Host=`) means unset. */
const blankAsUnset = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema);

export const OAUTH_PROVIDER_TYPES = ['github', 'google', 'microsoft-entra-id', 'gitlab', 'oidc'] as const;
const OAUTH_PROVIDER_KEYS = [
  'Type',
  'Enabled',
  'DisplayName',
  'Provider',
  'ClientId',
  'ClientSecret',
  'Scopes',
  'Issuer',
  'Tenant',
  'BaseUrl',
  'AuthorizationEndpoint',
  'TokenEndpoint',
  'UserInfoEndpoint',
  'ApiBaseUrl',
];

/**
 * One external identity provider. `Provider` is the identity namespace stored with linked
 * accounts (default: the entry's name), so two entries (login modes) can share one provider.
 * The endpoint keys override a fixed-endpoint provider's addresses (GitHub Enterprise, a
 * sovereign cloud, a proxy); keys are matched case-insensitively like every other key.
 */
const oauthProvider = z.preprocess(
  (v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v).map(([k, x]) => [
            OAUTH_PROVIDER_KEYS.find((n) => n.toLowerCase() === k.toLowerCase()) ?? k,
            x,
          ]),
        )
      : v,
  z
    .object({
      Type: z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.enum(OAUTH_PROVIDER_TYPES)),
      Enabled: bool(true),
      DisplayName: z.string().optional(),
      Provider: z
        .string()
        .trim()
        .toLowerCase()
        .regex(/^[a-z0-9][a-z0-9_.-]{0,63}$/)
        .optional(),
      ClientId: z.string().min(1),
      ClientSecret: blankAsUnset(z.string().optional()),
      Scopes: stringList([]),
      /** Generic OpenID Connect: the issuer whose discovery document gives the endpoints. */
      Issuer: z.string().url().optional(),
      /** Microsoft Entra ID tenant (common, organizations, consumers or a tenant id). */
      Tenant: z.string().default('common'),
      /** GitLab: the instance (default https://gitlab.com). */
      BaseUrl: z.string().url().optional(),
      AuthorizationEndpoint: z.string().url().optional(),
      TokenEndpoint: z.string().url().optional(),
      UserInfoEndpoint: z.string().url().optional(),
      /** GitHub: the REST API (default https://api.github.com; GitHub Enterprise: https://<host>/api/v3). */
      ApiBaseUrl: z.string().url().optional(),
    })
    .superRefine((p, ctx) => {
      if (p.Type === 'oidc' && !p.Issuer)
        ctx.addIssue({ code: 'custom', path: ['Issuer'], message: 'an oidc provider needs its Issuer' });
      if ((p.Type === 'github' || p.Type === 'google') && !p.ClientSecret)
        ctx.addIssue({
          code: 'custom',
          path: ['ClientSecret'],
          message: `a ${p.Type} provider needs its ClientSecret`,
        });
    }),
);

export const SUPPORTED_CULTURES = ['zh-CN', 'zh-TW', 'en-US', 'ja-JP', 'ko-KR', 'de-DE', 'hi-IN'] as const;
export type Culture = (typeof SUPPORTED_CULTURES)[number];

// Every key has a default, so an absent section parses as {} and takes them all.
const section = <T extends z.ZodRawShape>(shape: T) => z.object(shape).prefault({} as never);
/** An algorithm name as the signed-call headers accept it: upper case, without dashes or underscores. */
const algorithmName = (v: unknown) => (typeof v === 'string' ? v.trim().toUpperCase().replace(/[-_]/g, '') : v);

export const configSchema = z.object({
  App: section({
    Env: z.enum(['development', 'production', 'test']).default('development'),
    /** Shown as appTitle in UserInfo (site branding). */
    Name: z.string().default('Portcullis'),
    Subtitle: z.string().optional(),
    LogoUrl: z.string().optional(),
    /** Application version recorded by the upgrade engine and shown in the API document. */
    Version: z.string().default('0.1.0'),
    Port: int(8080, 0, 65535),
    Host: z.string().default('0.0.0.0'),
    /** Where the embedded database, the development secrets and the outbox live. */
    DataDir: z.string().default('.data'),
    /** Zone for date-time output when X-Timezone is absent or unknown (IANA). */
    // An unknown zone would silently write every date-time as UTC: refused at start-up instead.
    DefaultTimeZone: z.string().default('UTC').refine(isKnownTimeZone, {
      message: 'not a time zone the runtime knows (an IANA name such as Asia/Shanghai, or UTC)',
    }),
    /** Largest request body read by the REST facade; larger answers 413. */
    MaxRequestBodyBytes: int(1024 * 1024, 1024),
    /** Start in maintenance mode (503 + Retry-After for everything but health and discovery). */
    MaintenanceMode: bool(false),
    MaintenanceRetryAfterSeconds: int(30, 1),
    /**
     * Bearer key of the operator's maintenance switch (PUT /ops/maintenance, `npm run
     * maintenance`). Development keeps a generated one under DATA_DIR; production without one
     * has no run-time switch, and refuses a weak one.
     */
    OperatorKey: z.string().optional(),
    /** How often each node re-reads the operator's switch, besides the immediate cross-node message. */
    MaintenancePollSeconds: int(5, 1, 3600),
    LogLevel: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
    /** Public base address of this service, used in mailed links and OAuth redirects. */
    PublicBaseUrl: z.string().default('http://localhost:8080'),
    /** Take the client address from X-Forwarded-For (only behind a proxy you trust). */
    TrustForwardedHeaders: bool(false),
    /** Password hashes computed at once (argon2 holds a core and 19 MiB each); 0 = one per core. */
    PasswordHashConcurrency: int(0, 0, 256),
    /** Hand the responses finished in one event-loop turn to the network together (http/coalesce.ts). */
    CoalesceResponses: bool(true),
    /** Node identifier (0-1023) for id generation; random per process when unset. */
    NodeId: z.coerce.number().int().min(0).max(1023).optional(),
  }),
  Database: section({
    /** PostgreSQL connection string; unset means the embedded PGlite under App.DataDir. */
    Url: z.string().optional(),
    /** Embedded database only: keep it in memory (tests). */
    InMemory: bool(false),
    /** Embedded database only: start from this dump of a migrated data directory (tests). */
    SnapshotFile: z.string().optional(),
    /** Embedded database only: the empty cluster a new data directory starts from (default: the build's dist/pgdata-image.tar.gz). */
    InitialImageFile: z.string().optional(),
    /** PostgreSQL only: the schema to work in (default: the server's search_path, usually public). */
    Schema: z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/)
      .optional(),
    MaxConnections: int(10, 1, 500),
  }),
  Redis: section({
    /** Redis connection string; unset means in-process stores (single node). */
    Url: z.string().optional(),
    KeyPrefix: z.string().default('portcullis:'),
  }),
  Metrics: section({
    /** Prometheus metrics (prom-client). */
    Enabled: bool(true),
    /** 0: GET /metrics on the API's port, for the operator key only; otherwise a listener of its own, without a key. */
    Port: int(0, 0, 65535),
    /** Address of that listener: keep it private. */
    Host: z.string().default('127.0.0.1'),
  }),
  Jwt: section({
    SecretKey: z.string().optional(),
    Issuer: z.string().default('Portcullis'),
    Audience: z.string().default('Portcullis.Client'),
    AccessTokenMinutes: int(60, 1),
    RefreshTokenDays: int(7, 1),
    ClockSkewMinutes: int(5, 0),
    /**
     * Seconds during which the pair a refresh spent, presented again, answers that refresh's new
     * pair instead of ending the session as reuse (concurrent refreshes of one client); 0: never.
     */
    RefreshReuseGraceSeconds: int(10, 0, 300),
  }),
  Localization: section({
    DefaultCulture: z.enum(SUPPORTED_CULTURES).default('zh-CN'),
    SupportedCultures: stringList([...SUPPORTED_CULTURES]).pipe(z.array(z.enum(SUPPORTED_CULTURES)).min(1)),
  }),
  Saas: section({
    Auth: section({
      CaptchaEnabled: bool(true),
      /** Consecutive failed logins (passwords and second-factor codes) that lock an account. */
      LockoutThreshold: int(5, 1, 100),
      LockoutMinutes: int(30, 1, 10_080),
      /** Password-login throttle (fixed one-minute windows, shared across nodes). */
      ThrottlePerAccountAndIp: int(5, 1, 10_000),
      ThrottlePerIp: int(30, 1, 100_000),
      /** Passwords that force a change at login (besides the configured seed password). */
      DefaultPasswords: stringList(['SuperAdmin@123', 'Portcullis@123', 'Admin@123', 'Password@123']),
      /** Days a password stays valid (0 = no expiry). */
      PasswordExpiryDays: int(0, 0, 3650),
      /** Methods offered by LoginConfig (the UI shows only these). */
      LoginMethods: stringList(['password']),
      /** Issuer shown by authenticator apps. */
      TotpIssuer: z.string().default('Portcullis'),
      /** Failed unlocks that end a locked session. */
      UnlockMaxAttempts: int(5, 1, 100),
      /** Self-service features; production needs a mail (SMS) transport for each enabled one. */
      EmailCodeLoginEnabled: bool(true),
      PhoneCodeLoginEnabled: bool(true),
      RegistrationEnabled: bool(true),
      PasswordResetEnabled: bool(true),
      /** Home tenant of self-registered and external-login accounts (the seeded default tenant is 1). */
      SelfServiceTenantId: int(1, 1),
      /** Front-end pages the mailed links open; `?token=` is appended (inside the fragment when the URL has one). */
      PasswordResetUrl: z.string().url().default('http://localhost:7777/#/auth/reset-password'),
      EmailVerificationUrl: z.string().url().default('http://localhost:7777/#/auth/verify-email'),
    }),
    Impersonation: section({
      /** Lifetime of an impersonation session (never refreshable). */
      SessionMinutes: int(30, 1, 1440),
    }),
    Seed: section({
      AdminEmail: z.string().default('admin@portcullis.local'),
      AdminPassword: z.string().default('Portcullis@123'),
      AdminUserName: z.string().default('superadmin'),
    }),
  }),
  /** SMTP for e-mail; unset Host means the outbox (development and tests only). */
  Mail: section({
    Host: blankAsUnset(z.string().optional()),
    Port: int(587, 1, 65535),
    /** TLS from the first byte (port 465); otherwise STARTTLS when offered. */
    Secure: bool(false),
    /** Refuse to send unless STARTTLS succeeds. */
    RequireTls: bool(false),
    User: blankAsUnset(z.string().optional()),
    Password: blankAsUnset(z.string().optional()),
    From: z.string().default('Portcullis <no-reply@portcullis.local>'),
    TimeoutSeconds: int(10, 1, 300),
  }),
  /** SMS through an HTTP provider (JSON POST); unset Url means the outbox (development and tests only). */
  Sms: section({
    Url: blankAsUnset(z.string().url().optional()),
    /** Sent as `Authorization: Bearer <key>`. */
    ApiKey: blankAsUnset(z.string().optional()),
    From: blankAsUnset(z.string().optional()),
    TimeoutSeconds: int(10, 1, 300),
  }),
  /** External login (arctic): providers keyed by name (`OAuth__Providers__<name>__Type`, ...). */
  OAuth: section({
    /** The front-end page that receives the result in its URL fragment. */
    FrontendCallbackUrl: z.string().url().default('http://localhost:7777/#/auth/oauth-callback'),
    /** Domain of the placeholder e-mail of an external account whose provider e-mail is taken or unverified. */
    PlaceholderEmailDomain: z
      .string()
      .regex(/^[a-z0-9.-]+$/)
      .default('external.local'),
    /** Seconds the provider may take to answer the token and profile requests. */
    TimeoutSeconds: int(10, 1, 120),
    Providers: z
      .preprocess(
        (v) => {
          if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
          // Names are case-insensitive: `GitHub` and `github` are one entry, their keys merged.
          const out: Record<string, unknown> = {};
          for (const [k, x] of Object.entries(v)) {
            const name = k.toLowerCase();
            const prev = out[name];
            out[name] = prev && typeof prev === 'object' && x && typeof x === 'object' ? { ...prev, ...x } : x;
          }
          return out;
        },
        z.record(
          z.string().regex(/^[a-z0-9][a-z0-9_.-]{0,63}$/, 'provider names are letters, digits, ".", "_" or "-"'),
          oauthProvider,
        ),
      )
      .default({}),
  }),
  OpenApiSecurity: z
    .object({
      IsEnabled: bool(false),
      ProtectedPathPrefixes: stringList(['/api']),
      IgnoredPathPrefixes: stringList(['/openapi', '/swagger', '/health', '/connect']),
      AllowUnsignedRequests: bool(false),
      RequireContentSignature: bool(true),
      EnableReplayProtection: bool(true),
      TimestampToleranceSeconds: int(300, 1),
      NonceExpireSeconds: int(300, 1),
      // Spelled as in the headers too (HMAC-SHA256, hmac_sha512): case, dashes and underscores do not matter.
      DefaultSignatureAlgorithm: z
        .preprocess(algorithmName, z.enum(['HMACSHA256', 'HMACSHA512', 'RSASHA256', 'SM2', 'HMACSHA1']))
        .default('HMACSHA256'),
      DefaultContentSignatureAlgorithm: z
        .preprocess(algorithmName, z.enum(['SHA256', 'SHA512', 'MD5']))
        .default('SHA256'),
      AllowLegacySignatureAlgorithms: bool(false),
      MaxRequestBodySize: int(2 * 1024 * 1024, 1),
      /** Encrypt the answer to an encrypted request even without X-Encrypt-Response (the original's deployed setting). */
      EncryptResponseByDefaultWhenRequestEncrypted: bool(false),
    })
    // A default that no unpinned credential could use would refuse every signed call at run time.
    .superRefine((o, ctx) => {
      if (o.DefaultSignatureAlgorithm === 'RSASHA256' || o.DefaultSignatureAlgorithm === 'SM2') {
        ctx.addIssue({
          code: 'custom',
          path: ['DefaultSignatureAlgorithm'],
          message: `${o.DefaultSignatureAlgorithm} needs a public key registered on each credential; it cannot be the default`,
        });
      }
      if (o.DefaultSignatureAlgorithm === 'HMACSHA1' && !o.AllowLegacySignatureAlgorithms) {
        ctx.addIssue({
          code: 'custom',
          path: ['DefaultSignatureAlgorithm'],
          message: 'HMACSHA1 needs AllowLegacySignatureAlgorithms',
        });
      }
      if (o.DefaultContentSignatureAlgorithm === 'MD5' && !o.AllowLegacySignatureAlgorithms) {
        ctx.addIssue({
          code: 'custom',
          path: ['DefaultContentSignatureAlgorithm'],
          message: 'MD5 needs AllowLegacySignatureAlgorithms',
        });
      }
    })
    .prefault({} as never),
  Security: section({
    /**
     * Keys that encrypt API credential secrets at rest (AES-256-GCM): key id -> 32 random bytes
     * in Base64 (`Security__CredentialKeys__<id>`). Old keys stay listed so their rows still
     * decrypt; new secrets use `CredentialKeyId`. Ids are case-insensitive (kept lower-case).
     */
    CredentialKeys: z
      .preprocess(
        (v) =>
          v && typeof v === 'object' && !Array.isArray(v)
            ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k.toLowerCase(), x]))
            : v,
        z.record(
          z.string().regex(/^[a-z0-9._-]{1,32}$/, 'key ids are 1-32 letters, digits, ".", "_" or "-"'),
          z
            .string()
            .trim()
            .regex(/^[A-Za-z0-9+/_-]{43}=?$/, 'must be 32 bytes in Base64'),
        ),
      )
      .default({}),
    /** The key that encrypts new secrets; optional when exactly one key is configured. */
    CredentialKeyId: z.string().trim().toLowerCase().optional(),
  }),
});

export type AppConfig = z.infer<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;
