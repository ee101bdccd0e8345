/**
 * The parts of the SignalR hub protocol (JSON, version 1) the notification hub speaks: the
 * handshake, invocations pushed to the client, pings and close. Every message is JSON followed by
 * the record separator 0x1E; one WebSocket frame may carry several.
 */
export const RECORD_SEPARATOR = '\u001e';

export const MessageType = {
  Invocation: 1,
  StreamItem: 2,
  Completion: 3,
  StreamInvocation: 4,
  CancelInvocation: 5,
  Ping: 6,
  Close: 7,
} as const;

/** Splits a frame into its messages; a frame that does not end with the separator is malformed. */
export function splitMessages(text: string): string[] | undefined {
  if (!text.endsWith(RECORD_SEPARATOR)) return undefined;
  return text.slice(0, -1).split(RECORD_SEPARATOR);
}

export const frame = (message: unknown) => `${JSON.stringify(message)}${RECORD_SEPARATOR}`;

export const HANDSHAKE_OK = frame({});
export const PING = frame({ type: MessageType.Ping });

/** The handshake request: `{"protocol":"json","version":1}`; anything else is refused with a reason. */
export function readHandshake(message: string): { ok: true } | { ok: false; error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return { ok: false, error: 'The handshake is not JSON.' };
  }
  const { protocol, version } = (parsed ?? {}) as { protocol?: unknown; version?: unknown };
  if (protocol !== 'json')
    return { ok: false, error: `The protocol '${String(protocol)}' is not supported (json only).` };
  if (version !== 1) return { ok: false, error: `Version ${String(version)} of the json protocol is not supported.` };
  return { ok: true };
}

export const invocation = (target: string, args: unknown[]) =>
  frame({ type: MessageType.Invocation, target, arguments: args });
export const closeMessage = (error?: string, allowReconnect = false) =>
  frame(error ? { type: MessageType.Close, error, allowReconnect } : { type: MessageType.Close });
export const completionError = (invocationId: string, error: string) =>
  frame({ type: MessageType.Completion, invocationId, error });
