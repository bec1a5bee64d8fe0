import { createHash } from 'node:crypto';
import { alertKinds, type AlertKind, type Notification } from '../../../src/api/notifications/contract';
import { alertPath } from '../../../src/shared/alertPaths';
import type { AppContext } from '../../context';
import { publicUrl } from '../auth/password-links';
import { defineQueue } from '../jobs';
import type { Mail } from '../mail';
import { loadAlerts } from './list';

/** Every minute: the digest of each kind with alerts not mailed yet, unless one went out in the hour. */
export const ALERT_DIGEST_QUEUE = defineQueue('alerts.digest');
/** One digest to one admin, retried like other mail. */
export const ALERT_MAIL_QUEUE = defineQueue<Mail>('alerts.mail', { retryLimit: 9, retryDelay: 10, retryBackoff: true });

/** Alerts a mail lists; the rest are counted. */
const LISTED = 50;

const subjects: Record<AlertKind, string> = {
  webhook_paused: 'Webhook en pause',
  cap_reached: 'Plafond de règle atteint',
  budget_reached: 'Budget mensuel atteint',
  return_rate_exceeded: 'Taux de retour dépassé',
  export_failed: 'Export personnalisé en échec',
};

const spans = { hour: 'horaire', day: 'journalier', week: 'hebdomadaire', month: 'mensuel' } as const;
const named = (name: string | null) => (name === null ? '(supprimé)' : `« ${name} »`);

/** What an alert says, in French (the mail; the console has its own catalogs). */
export function alertText(n: Notification): string {
  switch (n.kind) {
    case 'webhook_paused':
      return `Le webhook du client ${named(n.customer.name)} est en pause après 10 échecs de suite : ses livraisons sont gardées jusqu'à sa reprise.`;
    case 'cap_reached':
      return `La règle ${named(n.rule.name)} a atteint son plafond ${spans[n.span]}.`;
    case 'budget_reached':
      return `Le client ${named(n.customer.name)} a atteint son budget mensuel.`;
    case 'return_rate_exceeded':
      return `Le client ${named(n.customer.name)} a dépassé son taux de retour autorisé (${n.rate} %).`;
    case 'export_failed':
      return `L'export personnalisé n° ${n.export.id} de ${named(n.user.name)} a échoué.`;
  }
}

const parisTime = (iso: string) => new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', dateStyle: 'short', timeStyle: 'short' }).format(new Date(iso));

/**
 * Mails each kind's alerts not mailed yet to every admin, in one mail per kind, at most one per
 * kind an hour. The claim (alert_digests.sent_at older than an hour, or none) is one conditional
 * upsert: of several instances at once one wins; the alerts are marked and the mails queued in
 * its transaction, so a digest is sent once, with the alerts it marked. Answers the digests sent.
 */
export async function sendAlertDigests(ctx: Pick<AppContext, 'db' | 'jobs' | 'config'>): Promise<number> {
  let digests = 0;
  for (const kind of alertKinds) {
    const queued = await ctx.db.tx(async (q) => {
      const claimed = await q.query(
        `INSERT INTO alert_digests (kind, sent_at)
         SELECT $1, now() WHERE EXISTS (SELECT 1 FROM alerts WHERE kind = $1 AND mailed_at IS NULL)
         ON CONFLICT (kind) DO UPDATE SET sent_at = now() WHERE alert_digests.sent_at <= now() - interval '1 hour'`,
        [kind],
      );
      if (claimed.rowCount !== 1) return false;
      const { rows } = await q.query<{ id: string }>('UPDATE alerts SET mailed_at = now() WHERE kind = $1 AND mailed_at IS NULL RETURNING id', [kind]);
      const ids = rows.map((r) => r.id);
      const alerts = await loadAlerts(q, null, 'a.id = ANY($2::int8[])', [ids], LISTED);
      const admins = (await q.query<{ email: string }>('SELECT email FROM users WHERE admin ORDER BY id')).rows;
      const base = publicUrl(ctx.config);
      const lines = alerts.flatMap((a) => [`- ${parisTime(a.created_at)} : ${alertText(a)}`, `  ${new URL(alertPath(a), base).toString()}`]);
      if (ids.length > alerts.length) lines.push(`… et ${ids.length - alerts.length} autre(s), dans la console.`);
      const text = [
        'Bonjour,',
        '',
        ids.length === 1 ? 'Une alerte a été levée :' : `${ids.length} alertes ont été levées :`,
        '',
        ...lines,
        '',
        `Toutes les alertes : ${base} (la cloche de la barre du haut).`,
        '',
      ].join('\n');
      const subject = `Alerte : ${subjects[kind]}${ids.length > 1 ? ` (${ids.length})` : ''}`;
      const digestKey = `${kind}:${ids[0]}`;
      for (const { email } of admins) await ctx.jobs.sendIn(q, ALERT_MAIL_QUEUE, { to: email, subject, text }, { id: mailJobId(`${digestKey}:${email}`) });
      return true;
    });
    if (queued) {
      ctx.jobs.wake(ALERT_MAIL_QUEUE);
      digests++;
    }
  }
  return digests;
}

/** A job id (a UUID) of one digest to one admin: the same digest is queued once per admin. */
function mailJobId(key: string): string {
  const h = createHash('sha256').update(`alerts:${key}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function registerAlertJobs(ctx: AppContext) {
  ctx.jobs.register(ALERT_DIGEST_QUEUE, () => sendAlertDigests(ctx).then(() => undefined), { cron: '* * * * *', pollingIntervalSeconds: 30 });
  ctx.jobs.register(ALERT_MAIL_QUEUE, (mail) => ctx.mailer.send(mail));
}
