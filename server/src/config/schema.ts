import { z } from 'zod';

/**
 * The one configuration schema. Section and key names follow the spec's configuration sections
 * so that ASP.NET-style environment variables (`Saas__Auth__CaptchaEnabled`) map one to one.
 */

/** Environment values are text; `false`, `0`, `no` and `off` must not become true. */
const bool = (fallback: boolean) =>
  z.preprocess((v) => {
    if (typeof v !== 'string') return v;
    const s = v.trim().toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(s)) return true;
    if (['false', '0', 'no', 'off', ''].includes(s)) return false;
    return v;
  }, z.boolean()).default(fallback);

const int = (fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

/** Arrays come as `Key__0`, `Key__1` (an object with numeric keys) or as a comma list. */
const stringList = (fallback: string[]) =>
  z.preprocess((v) => {
    if (typeof v === 'string') return v.split(',').map((s) => s.trim()).filter(Boolean);
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.entries(v as Record<string, unknown>)
        .sort(([a], [b]) => Number(a) - Number(b))
        .map(([, item]) => item);
    }
    return v;
  }, z.array(z.string())).default(fallback);

export const SUPPORTED_CULTURES = ['zh-CN', 'zh-TW', 'en-US', 'ja-JP', 'ko-KR', 'de-DE', 'hi-IN'] as const;
export type Culture = (typeof SUPPORTED_CULTURES)[number];

// Every key has a default, so an absent section parses as {} and takes them all.
const section = <T extends z.ZodRawShape>(shape: T) => z.object(shape).prefault({} as never);

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
    DefaultTimeZone: z.string().default('UTC'),
    /** Largest request body read by the REST facade; larger answers 413. */
    MaxRequestBodyBytes: int(1024 * 1024, 1024),
    /** Start in maintenance mode (503 + Retry-After for everything but health and discovery). */
    MaintenanceMode: bool(false),
    MaintenanceRetryAfterSeconds: int(30, 1),
    LogLevel: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
    /** Public base address of this service, used in mailed links and OAuth redirects. */
    PublicBaseUrl: z.string().default('http://localhost:8080'),
    /** Take the client address from X-Forwarded-For (only behind a proxy you trust). */
    TrustForwardedHeaders: bool(false),
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
    /** PostgreSQL only: the schema to work in (default: the server's search_path, usually public). */
    Schema: z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/).optional(),
    MaxConnections: int(10, 1, 500),
  }),
  Redis: section({
    /** Redis connection string; unset means in-process stores (single node). */
    Url: z.string().optional(),
    KeyPrefix: z.string().default('portcullis:'),
  }),
  Jwt: section({
    SecretKey: z.string().optional(),
    Issuer: z.string().default('Portcullis'),
    Audience: z.string().default('Portcullis.Client'),
    AccessTokenMinutes: int(60, 1),
    RefreshTokenDays: int(7, 1),
    ClockSkewMinutes: int(5, 0),
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
    }),
    Seed: section({
      AdminEmail: z.string().default('admin@portcullis.local'),
      AdminPassword: z.string().default('Portcullis@123'),
      AdminUserName: z.string().default('superadmin'),
    }),
  }),
  OpenApiSecurity: section({
    IsEnabled: bool(false),
    ProtectedPathPrefixes: stringList(['/api']),
    IgnoredPathPrefixes: stringList(['/openapi', '/swagger', '/health', '/connect']),
    AllowUnsignedRequests: bool(false),
    RequireContentSignature: bool(true),
    EnableReplayProtection: bool(true),
    TimestampToleranceSeconds: int(300, 1),
    NonceExpireSeconds: int(300, 1),
    DefaultSignatureAlgorithm: z.enum(['HMACSHA256', 'HMACSHA512', 'RSASHA256', 'SM2', 'HMACSHA1']).default('HMACSHA256'),
    DefaultContentSignatureAlgorithm: z.enum(['SHA256', 'SHA512', 'MD5']).default('SHA256'),
    AllowLegacySignatureAlgorithms: bool(false),
    MaxRequestBodySize: int(2 * 1024 * 1024, 1),
  }),
});

export type AppConfig = z.infer<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;
