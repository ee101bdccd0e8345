import path from 'node:path';
import { ConfigError } from '../../config/load.js';
import type { AppConfig } from '../../config/schema.js';
import type { Clock } from '../clock.js';
import { createOutboxTransport } from './outbox.js';
import { createHttpSmsTransport } from './sms-http.js';
import { createSmtpTransport } from './smtp.js';
import { layoutMail } from './mail-layout.js';
import type { MessageTransport } from './transport.js';

/**
 * The transport of each channel (every e-mail in the site's layout, mail-layout.ts): SMTP when `Mail__Host` is set, the HTTP SMS provider when
 * `Sms__Url` is set, otherwise (development and tests) the outbox under DATA_DIR/outbox/.
 * Production never falls back to the outbox: a channel without a transport fails its sends
 * (and `checkMessagingConfig` refuses to start when an enabled feature needs it). Features that
 * cannot be switched off (second-factor codes, security notices) ask `available` instead: the
 * e-mail and phone second factors are not offered without their channel.
 */
export function createMessageTransport(
  config: AppConfig,
  deps: { clock: Clock },
): MessageTransport & { close(): void } {
  const outbox =
    config.App.Env === 'production'
      ? undefined
      : createOutboxTransport({ dir: path.join(config.App.DataDir, 'outbox'), clock: deps.clock });
  const smtp = config.Mail.Host ? createSmtpTransport(config.Mail) : undefined;
  const missing = (channel: string): MessageTransport => ({
    send: () => Promise.reject(new Error(`No ${channel} transport is configured`)),
  });
  const email = smtp ?? outbox ?? missing('e-mail');
  const sms = config.Sms.Url ? createHttpSmsTransport(config.Sms) : (outbox ?? missing('SMS'));
  const has = { email: !!(smtp ?? outbox), sms: !!(config.Sms.Url || outbox) };
  const site = {
    title: config.App.Name,
    logoUrl: config.App.LogoUrl,
    defaultCulture: config.Localization.DefaultCulture,
    timeZone: config.App.DefaultTimeZone,
  };
  return {
    send: (message) => (message.channel === 'email' ? email.send(layoutMail(message, site)) : sms.send(message)),
    available: (channel) => has[channel],
    close: () => smtp?.close(),
  };
}

/** The settings each channel needs in production, by the features that use it. */
export function missingTransports(config: AppConfig): string[] {
  if (config.App.Env !== 'production') return [];
  const auth = config.Saas.Auth;
  const problems: string[] = [];
  const mailFeatures = [
    auth.EmailCodeLoginEnabled && 'Saas__Auth__EmailCodeLoginEnabled',
    auth.RegistrationEnabled && 'Saas__Auth__RegistrationEnabled',
    auth.PasswordResetEnabled && 'Saas__Auth__PasswordResetEnabled',
  ].filter(Boolean);
  if (mailFeatures.length && !config.Mail.Host)
    problems.push(`Mail__Host is not set but ${mailFeatures.join(', ')} need e-mail`);
  if (auth.PhoneCodeLoginEnabled && !config.Sms.Url)
    problems.push('Sms__Url is not set but Saas__Auth__PhoneCodeLoginEnabled needs SMS');
  return problems;
}

/** Production refuses to start without a transport for an enabled method (the outbox is for development). */
export function checkMessagingConfig(config: AppConfig): void {
  const problems = missingTransports(config);
  if (problems.length)
    throw new ConfigError(
      `Messaging is not configured for production:\n  ${problems.join('\n  ')}\n(or switch the feature off)`,
    );
}
