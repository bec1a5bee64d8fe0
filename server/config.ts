import { resolve } from 'node:path';
import { z } from 'zod';

const flag = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');

const schema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('0.0.0.0'),
    DATA_DIR: z.string().default('./data'),
    DATABASE_URL: z.string().optional(),
    SEED_DEMO: flag.optional(),
    ADMIN_EMAIL: z.string().email().optional(),
    ADMIN_PASSWORD: z.string().min(8).optional(),
    // scrypt's cost for new password hashes, as the power of two of N: 17 is OWASP's; the tests use 10 (1,000× faster).
    PASSWORD_HASH_COST: z.coerce
      .number()
      .int()
      .min(10, { error: 'PASSWORD_HASH_COST va de 10 à 20' })
      .max(20, { error: 'PASSWORD_HASH_COST va de 10 à 20' })
      .default(17),
    TOKEN_TTL_HOURS: z.coerce.number().positive().default(12),
    // Who must have a second factor (TOTP or passkey) to use the console; without one, only its enrolment.
    REQUIRE_2FA: z.enum(['admins', 'all', 'none'], { error: 'REQUIRE_2FA vaut admins, all ou none' }).default('none'),
    // The key that encrypts the TOTP secrets (32 bytes in base64); else DATA_DIR/secrets.key, drawn once.
    SECRETS_KEY: z
      .string()
      .refine((v) => Buffer.from(v, 'base64').length === 32, 'SECRETS_KEY doit contenir 32 octets en base64 (openssl rand -base64 32)')
      .optional(),
    SMTP_URL: z.string().optional(),
    MAIL_FROM: z.string().default('Console leads <no-reply@leads.local>'),
    PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'PUBLIC_URL doit être une adresse http(s) complète' }).optional(),
    BODY_LIMIT_MB: z.coerce.number().positive().default(1),
    IMPORT_BODY_LIMIT_MB: z.coerce.number().positive().default(64),
    // Behind a reverse proxy: take the client address from X-Forwarded-For (throttling, logs).
    TRUST_PROXY: flag.default(false),
    // Taboola Backstage: without both credentials the Taboola screen works on its sandbox.
    TABOOLA_CLIENT_ID: z.string().optional(),
    TABOOLA_CLIENT_SECRET: z.string().optional(),
    TABOOLA_API_URL: z.url({ protocol: /^https?$/, error: 'TABOOLA_API_URL doit être une adresse http(s)' }).default('https://backstage.taboola.com'),
    // Days a bulk status change can still be undone; older undo records are deleted every night.
    UNDO_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
    // Leads older than this many whole months are archived to files in the export storage (off when unset).
    RETENTION_MONTHS: z.coerce
      .number({ error: 'RETENTION_MONTHS est un nombre de mois' })
      .int('RETENTION_MONTHS est un nombre entier de mois')
      .min(1, 'RETENTION_MONTHS vaut au moins 1')
      .max(1200, 'RETENTION_MONTHS vaut au plus 1200')
      .optional(),
    // Export files in S3-compatible object storage (shared by every instance) instead of DATA_DIR/exports.
    S3_URL: z.url({ protocol: /^https?$/, error: "S3_URL doit être l'adresse http(s) du service de stockage objet" }).optional(),
    S3_BUCKET: z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'S3_BUCKET doit être un nom de bucket valide (3 à 63 caractères : minuscules, chiffres, points, tirets)')
      .optional(),
    S3_REGION: z.string().default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    // Path-style addresses (endpoint/bucket/key): what MinIO, Garage, Ceph and the like expect.
    S3_FORCE_PATH_STYLE: flag.default(true),
    // Single sign-on with the company's OpenID Connect provider ('Se connecter avec <OIDC_LABEL>'); the three go together.
    OIDC_ISSUER: z.url({ protocol: /^https?$/, error: "OIDC_ISSUER doit être l'adresse http(s) du fournisseur d'identité" }).optional(),
    OIDC_CLIENT_ID: z.string().optional(),
    OIDC_CLIENT_SECRET: z.string().optional(),
    OIDC_LABEL: z.string().trim().min(1).max(60).default("l'annuaire de l'entreprise"),
    // Live events (GET /api/events): the outbox is read every EVENTS_POLL_MS by each instance, a
    // heartbeat comment goes to each stream every EVENTS_HEARTBEAT_SECONDS, events are kept EVENTS_RETENTION_HOURS.
    EVENTS_POLL_MS: z.coerce.number().int().min(10).max(10_000).default(100),
    EVENTS_HEARTBEAT_SECONDS: z.coerce.number().positive().max(300).default(15),
    EVENTS_RETENTION_HOURS: z.coerce
      .number()
      .positive()
      .max(24 * 30)
      .default(24),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .superRefine((c, ctx) => {
    if ((c.OIDC_ISSUER || c.OIDC_CLIENT_ID || c.OIDC_CLIENT_SECRET) && !(c.OIDC_ISSUER && c.OIDC_CLIENT_ID && c.OIDC_CLIENT_SECRET)) {
      ctx.addIssue({
        code: 'custom',
        path: ['OIDC_ISSUER'],
        message: 'OIDC_ISSUER, OIDC_CLIENT_ID et OIDC_CLIENT_SECRET vont ensemble : donnez les trois ou aucun',
      });
    }
    if (c.S3_URL && !c.S3_BUCKET) ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'S3_BUCKET est obligatoire quand S3_URL est défini' });
    if (!c.S3_ACCESS_KEY_ID !== !c.S3_SECRET_ACCESS_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['S3_SECRET_ACCESS_KEY'],
        message: 'S3_ACCESS_KEY_ID et S3_SECRET_ACCESS_KEY vont ensemble : donnez les deux ou aucun',
      });
    }
  });

export type Config = Omit<z.infer<typeof schema>, 'SEED_DEMO'> & {
  /** Whether to seed the demo data on an empty database. */
  seedDemo: boolean;
  /** PGlite data folder, or undefined for an in-memory database (tests). */
  pgliteDir: string | undefined;
  /** The in-memory database's starting content, a dumped data folder (the API tests': migrated once per run). */
  pgliteImage?: Uint8Array;
  dataDir: string;
  /** Parse every answer with its route's response contract (the API tests). */
  checkContracts?: boolean;
  /** Seconds between checks for due schedules (pg-boss, 30 by default); the two-instance test shortens it. */
  cronCheckSeconds?: number;
};

/** Reads the configuration from the environment; `overrides` serve tests. */
export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Configuration invalide :\n${lines.join('\n')}`);
  }
  const { SEED_DEMO, ...rest } = parsed.data;
  const dataDir = resolve(rest.DATA_DIR);
  return {
    ...rest,
    dataDir,
    pgliteDir: resolve(dataDir, 'pglite'),
    seedDemo: SEED_DEMO ?? !rest.DATABASE_URL,
    ...overrides,
  };
}
