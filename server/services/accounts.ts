import type { AppContext } from '../context';
import { defineQueue } from './jobs';
import type { User } from '../../src/api/auth/contract';
import type { Account } from '../../src/api/users/contract';
import type { Db } from '../db/connection';
import { conflict, notFound, validationFailed } from '../errors';
import { audit } from './audit';
import { LINK_TTL_HOURS, issuePasswordLink, takeResetMail } from './auth/password-links';
import { hashPassword, verifyPassword } from './auth/passwords';
import { hashToken } from './auth/sessions';
import { createUser, findByEmail, listUsers, userNotFound } from './users';

/**
 * What a mail job is given: an account to invite, or an address that asked for a reset (looked
 * up by the job, so the request answers alike whether it has an account). Never a token: the job
 * draws the link itself, so no secret is ever written to the job table.
 */
type PasswordMail = { purpose: 'invite'; userId: number } | { purpose: 'reset'; email: string };
export const PASSWORD_MAIL_JOB = defineQueue<PasswordMail>('mail.password-link');

/** Creates an account without a password and queues its invitation. */
export async function registerAccount(ctx: AppContext, actorId: number, input: { name: string; email: string }): Promise<User> {
  return ctx.db.tx(async (q) => {
    const created = await createUser(q, input);
    await audit(q, { actorId, action: 'users.invite', entity: 'user', count: 1, details: { user_id: created.id } });
    await ctx.jobs.sendIn(q, PASSWORD_MAIL_JOB, { purpose: 'invite', userId: created.id });
    q.afterCommit(async () => ctx.jobs.wake(PASSWORD_MAIL_JOB));
    return created;
  });
}

/** Sends a new invitation to an account that has not chosen its password yet. */
export async function reinvite(ctx: AppContext, actorId: number, userId: number): Promise<Account> {
  const { rows } = await ctx.db.query<{ has_password: boolean }>('SELECT password_hash IS NOT NULL AS has_password FROM users WHERE id = $1', [userId]);
  if (!rows[0]) throw notFound(userNotFound);
  if (rows[0].has_password) throw conflict('Ce compte a déjà choisi son mot de passe : il peut utiliser « Mot de passe oublié ? »');
  // The mail's job and its audit row together; the worker woken once both are committed.
  await ctx.db.tx(async (q) => {
    await audit(q, { actorId, action: 'users.invite', entity: 'user', count: 1, details: { user_id: userId } });
    await ctx.jobs.sendIn(q, PASSWORD_MAIL_JOB, { purpose: 'invite', userId });
    q.afterCommit(async () => ctx.jobs.wake(PASSWORD_MAIL_JOB));
  });
  return (await listUsers(ctx.db, userId))[0]!;
}

/** 'Mot de passe oublié ?': queues the lookup and the mail; the caller answers the same in every case. */
export async function requestPasswordReset(ctx: AppContext, email: string): Promise<void> {
  await ctx.jobs.send(PASSWORD_MAIL_JOB, { purpose: 'reset', email });
}

/** Changes one's own password; every other session of the account ends, this one stays. */
export async function changePassword(db: Db, userId: number, currentToken: string, current: string, next: string): Promise<number> {
  const { rows } = await db.query<{ password_hash: string | null }>('SELECT password_hash FROM users WHERE id = $1', [userId]);
  if (!rows[0]?.password_hash || !(await verifyPassword(current, rows[0].password_hash))) {
    throw validationFailed({ current_password: 'Mot de passe actuel incorrect' });
  }
  const hash = await hashPassword(next);
  return db.tx(async (q) => {
    await q.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, hash]);
    await q.query('DELETE FROM password_links WHERE user_id = $1 AND used_at IS NULL', [userId]);
    const { rowCount } = await q.query('DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2', [userId, hashToken(currentToken)]);
    await audit(q, { actorId: userId, action: 'users.password_changed', entity: 'user', count: 1, details: { user_id: userId, sessions_closed: rowCount } });
    return rowCount;
  });
}

const mails = {
  invite: (name: string, url: string) => ({
    subject: 'Votre compte sur la console des leads',
    text: [
      `Bonjour ${name},`,
      '',
      'Un compte vient de vous être créé sur la console des leads.',
      `Choisissez votre mot de passe avec ce lien, valable ${LINK_TTL_HOURS} heures et utilisable une seule fois :`,
      url,
      '',
      "Vous vous connecterez ensuite avec votre adresse email et ce mot de passe. Aucun mot de passe n'est jamais envoyé par email.",
    ],
  }),
  reset: (name: string, url: string) => ({
    subject: 'Nouveau mot de passe pour la console des leads',
    text: [
      `Bonjour ${name},`,
      '',
      'Un nouveau mot de passe a été demandé pour votre compte sur la console des leads.',
      `Choisissez-le avec ce lien, valable ${LINK_TTL_HOURS} heures et utilisable une seule fois :`,
      url,
      '',
      "Si vous n'êtes pas à l'origine de cette demande, ignorez ce message : votre mot de passe actuel reste valable.",
    ],
  }),
};

export function registerAccountJobs(ctx: AppContext): void {
  ctx.jobs.register(PASSWORD_MAIL_JOB, async (job) => {
    const account =
      job.purpose === 'invite'
        ? (
            await ctx.db.query<{ id: number; email: string; name: string; password_hash: string | null }>(
              'SELECT id, email, name, password_hash FROM users WHERE id = $1',
              [job.userId],
            )
          ).rows[0]
        : await findByEmail(ctx.db, job.email);
    // Deleted before its mail went out, an address without an account, or an invitation already used.
    if (!account || (job.purpose === 'invite' && account.password_hash !== null)) return;
    if (job.purpose === 'reset' && !(await takeResetMail(ctx.db, account.id))) return;
    const url = await ctx.db.tx(async (q) => {
      if (job.purpose === 'reset') await audit(q, { actorId: null, action: 'users.reset_link', entity: 'user', count: 1, details: { user_id: account.id } });
      return issuePasswordLink(q, ctx.config, account.id, job.purpose);
    });
    const mail = mails[job.purpose](account.name, url);
    await ctx.mailer.send({ to: account.email, subject: mail.subject, text: mail.text.join('\n') });
  });
}
