import nodemailer from 'nodemailer';
import type { AppConfig } from '../../config/schema.js';
import type { MessageTransport } from './transport.js';

/**
 * E-mail over SMTP (nodemailer), configured by the `Mail` section. One pooled transport per
 * process; every timeout is bounded, so a dead mail server fails a request instead of hanging it.
 */
export function createSmtpTransport(mail: AppConfig['Mail']): MessageTransport & { close(): void } {
  const timeout = mail.TimeoutSeconds * 1000;
  const transporter = nodemailer.createTransport({
    host: mail.Host,
    port: mail.Port,
    secure: mail.Secure,
    requireTLS: mail.RequireTls,
    auth: mail.User ? { user: mail.User, pass: mail.Password ?? '' } : undefined,
    pool: true,
    maxConnections: 3,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  return {
    async send(message) {
      if (message.channel !== 'email') throw new Error('The SMTP transport sends e-mail only');
      await transporter.sendMail({
        from: mail.From,
        to: message.to,
        subject: message.subject ?? '',
        text: message.text,
        html: message.html,
        headers: { 'X-Portcullis-Kind': message.kind },
      });
    },
    close: () => transporter.close(),
  };
}
