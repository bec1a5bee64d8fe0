import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { maskEmail } from '../logger';
import type { Logger } from 'pino';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * Sends through SMTP when `smtpUrl` is set; otherwise writes each message as an .eml file to
 * `outboxDir`, so a fresh install can read what it would have sent.
 */
export function createMailer(opts: { smtpUrl?: string; from: string; outboxDir: string; log: Pick<Logger, 'info'> }): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: opts.from, ...mail });
        opts.log.info({ to: maskEmail(mail.to), subject: mail.subject }, 'mail sent');
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: opts.from, ...mail });
      mkdirSync(opts.outboxDir, { recursive: true });
      const file = join(opts.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^\w.-]/g, '')}.eml`);
      writeFileSync(file, info.message as Buffer);
      opts.log.info({ to: maskEmail(mail.to), subject: mail.subject, file }, 'mail written to outbox');
    },
  };
}
