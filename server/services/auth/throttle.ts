import type { Queryable } from '../../db/connection';
import { AppError } from '../../errors';

// Failed sign-ins within WINDOW are counted three ways. The pair limit stops guessing from one
// address; the address limit stops spraying many accounts; the account limit stops a distributed
// attack, yet never locks the owner out: addresses that ever signed in to the account
// (login_addresses, which outlives the sessions that logout deletes) keep signing in.
const WINDOW_MINUTES = 15;
const PAIR_LIMIT = 5;
const IP_LIMIT = 20;
const ACCOUNT_LIMIT = 50;

const tooMany = () => new AppError(429, 'rate_limited', `Trop de tentatives de connexion, réessayez dans ${WINDOW_MINUTES} minutes`);

export async function checkLoginAllowed(db: Queryable, email: string, ip: string): Promise<void> {
  const { rows } = await db.query<{ pair: number; by_ip: number; by_account: number; known_ip: boolean }>(
    `SELECT
       count(*) FILTER (WHERE email = $1 AND ip = $2)::int AS pair,
       count(*) FILTER (WHERE ip = $2)::int AS by_ip,
       count(*) FILTER (WHERE email = $1)::int AS by_account,
       EXISTS (SELECT 1 FROM login_addresses a JOIN users u ON u.id = a.user_id
                WHERE lower(u.email) = $1 AND a.ip = $2) AS known_ip
     FROM auth_failures
     WHERE at > now() - make_interval(mins => $3) AND (email = $1 OR ip = $2)`,
    [email, ip, WINDOW_MINUTES],
  );
  const c = rows[0]!;
  if (c.pair >= PAIR_LIMIT || c.by_ip >= IP_LIMIT) throw tooMany();
  if (c.by_account >= ACCOUNT_LIMIT && !c.known_ip) throw tooMany();
}

export async function recordLoginFailure(db: Queryable, email: string, ip: string): Promise<void> {
  await db.query('INSERT INTO auth_failures (email, ip) VALUES ($1, $2)', [email, ip]);
}

/** Forgives the failures of one (email, address) pair: after a sign-in, or a password chosen through a mailed link. */
export async function clearLoginFailures(db: Queryable, email: string, ip: string): Promise<void> {
  await db.query('DELETE FROM auth_failures WHERE email = $1 AND ip = $2', [email, ip]);
}

/** After a successful sign-in: the pair's failures are forgiven and the address is known to the account from now on. */
export async function recordLoginSuccess(db: Queryable, userId: number, email: string, ip: string): Promise<void> {
  await clearLoginFailures(db, email, ip);
  await db.query(`INSERT INTO login_addresses (user_id, ip) VALUES ($1, $2) ON CONFLICT (user_id, ip) DO UPDATE SET last_at = now()`, [userId, ip]);
}

export async function purgeOldFailures(db: Queryable): Promise<void> {
  await db.query(`DELETE FROM auth_failures WHERE at < now() - make_interval(mins => $1)`, [WINDOW_MINUTES]);
}
