import type { AppConfig } from '../../config/schema.js';
import type { MessageTransport } from './transport.js';

/**
 * SMS through a generic HTTP provider (a webhook-style gateway): one JSON POST per message,
 * `{to, from, text, kind}`, with `Authorization: Bearer <Sms__ApiKey>` when a key is set. Any
 * 2xx is delivery accepted; anything else, a network error or the timeout rejects.
 */
export function createHttpSmsTransport(sms: AppConfig['Sms'], fetchImpl: typeof fetch = fetch): MessageTransport {
  const url = sms.Url;
  if (!url) throw new Error('Sms__Url is not set');
  return {
    async send(message) {
      if (message.channel !== 'sms') throw new Error('The SMS transport sends SMS only');
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
      if (sms.ApiKey) headers.authorization = `Bearer ${sms.ApiKey}`;
      const response = await fetchImpl(url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ to: message.to, from: sms.From ?? null, text: message.text, kind: message.kind }),
        signal: AbortSignal.timeout(sms.TimeoutSeconds * 1000),
      });
      // The body is not needed; drain it so the connection can be reused.
      await response.arrayBuffer().catch(() => undefined);
      if (!response.ok) throw new Error(`SMS provider answered ${response.status}`);
    },
  };
}
