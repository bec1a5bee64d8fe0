import type { AppContext } from '../context';
import type { User } from '../../src/api/auth/contract';
import { hashPassword, randomPassword } from './auth/passwords';
import { createUser } from './users';

export const WELCOME_MAIL_JOB = 'mail.welcome';

/**
 * Creates an account and queues its welcome mail. The password is drawn by the job itself, so
 * no secret is ever written to the job table.
 */
export async function registerAccount(ctx: AppContext, input: { name: string; email: string }): Promise<User> {
  const { user } = await createUser(ctx.db, input);
  await ctx.jobs.send(WELCOME_MAIL_JOB, { userId: user.id });
  return user;
}

export function registerAccountJobs(ctx: AppContext): void {
  ctx.jobs.register<{ userId: number }>(WELCOME_MAIL_JOB, async ({ userId }) => {
    const password = randomPassword();
    const { rows } = await ctx.db.query<{ email: string; name: string }>(
      'UPDATE users SET password_hash = $2 WHERE id = $1 RETURNING email, name',
      [userId, await hashPassword(password)],
    );
    const account = rows[0];
    if (!account) return; // deleted before its mail went out
    const url = ctx.config.PUBLIC_URL ?? `http://localhost:${ctx.config.PORT}`;
    await ctx.mailer.send({
      to: account.email,
      subject: 'Votre compte sur la console des leads',
      text: [
        `Bonjour ${account.name},`,
        '',
        'Un compte vient de vous être créé sur la console des leads.',
        `Adresse : ${url}/login`,
        `Identifiant : ${account.email}`,
        `Mot de passe provisoire : ${password}`,
      ].join('\n'),
    });
  });
}
