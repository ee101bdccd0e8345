import type { Culture } from '../../config/schema.js';

/** One message to a person: an e-mail or an SMS. */
export interface OutgoingMessage {
  channel: 'email' | 'sms';
  to: string;
  /** What the message is for (login-code, two-factor-code, reset-link, security-alert, ...). */
  kind: string;
  subject?: string;
  text: string;
  /** The body as HTML; without it the e-mail layout builds one from the text. */
  html?: string;
  /** The recipient's language, for the layout's own words (default: Localization:DefaultCulture). */
  culture?: Culture;
  /** For security notices: when, from where and on what the change happened. */
  details?: { time: Date; ip?: string; device?: string };
}

/**
 * Delivers messages. Implementations: the outbox (files, development and tests), SMTP and an
 * SMS provider. A failure rejects; callers must not leave a code usable that was
 * never sent.
 */
export interface MessageTransport {
  send(message: OutgoingMessage): Promise<void>;
  /** Whether the channel has a transport at all (production has no outbox); absent: yes. */
  available?(channel: OutgoingMessage['channel']): boolean;
}
