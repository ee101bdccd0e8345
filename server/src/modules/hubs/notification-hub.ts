import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AppDeps } from '../../app-deps.js';
import { isAppError } from '../../errors/app-error.js';
import { isMaintenanceExempt } from '../../http/maintenance.js';
import type { SessionStateService } from '../auth/session/session-state.js';
import type { TokenService } from '../auth/session/tokens.js';
import { authenticateToken, bearerToken, type AuthContext } from '../auth/session/session-gate.js';
import {
  closeMessage,
  completionError,
  HANDSHAKE_OK,
  invocation,
  MessageType,
  PING,
  readHandshake,
  splitMessages,
} from './signalr-protocol.js';

export const NOTIFICATION_HUB = '/hubs/notification';
/** Pushes for the notification hub, from whichever node caused them to every node's connections. */
const CHANNEL = 'hub:notification';
const KEEP_ALIVE_MS = 15_000;
const CLIENT_TIMEOUT_MS = 30_000;
const HANDSHAKE_TIMEOUT_MS = 15_000;
const MAX_MESSAGE_BYTES = 32_768;
/**
 * Bounds of one store message of pushes: an announcement to a large tenant goes out in a few
 * messages, not one per member, and none grows past what the store passes comfortably.
 */
const PUSHES_PER_MESSAGE = 500;
const BYTES_PER_MESSAGE = 1_000_000;
/** Connections one user may hold on one node (tabs and devices); more is refused with 429. */
export const MAX_CONNECTIONS_PER_USER = 32;

interface Connection {
  socket: WebSocket;
  userId: string;
  sessionId: string;
  /** Pushes go only to connections past the handshake; a ForceLogout closes the others too. */
  handshaken: boolean;
}

interface Push {
  userId: string;
  target: string;
  arguments: unknown[];
  /**
   * For the ForceLogout of ended sessions: only the connections of these sessions get the push,
   * and are then closed (null: every connection of the user). Absent: every connection of the
   * user gets the push and stays open.
   */
  closeSessions?: string[] | null;
}

/** The token of a hub request: the Authorization header, or `access_token` in the query (a browser socket cannot set headers). */
export function hubToken(url: URL, authorization: string | null | undefined): string | undefined {
  return bearerToken(authorization) ?? (url.searchParams.get('access_token') || undefined);
}

/**
 * The notification hub (SPEC "Real-time hubs", the original service) over WebSockets: negotiate,
 * then the SignalR JSON protocol. It has no client methods; when sessions end, the server pushes
 * ForceLogout `{reason, targetSessionIds}` to the connections of those sessions only, on every
 * node, and then closes them (null: every session of the user, as a deletion ends them all).
 * The user's other sessions hear nothing: the original front end logs out on any ForceLogout
 * it receives, so a push to every connection of the user would sign out every browser still
 * signed in. New inbox rows are pushed as ReceiveNotification to every connection of their
 * user. Unlike the original, connecting checks the session too (a revoked session cannot
 * connect).
 */
type HubDeps = Pick<AppDeps, 'config' | 'logger' | 'clock' | 'store' | 'events' | 'maintenance'> & {
  tokens: TokenService;
  sessionState: SessionStateService;
};

export function createNotificationHub(deps: HubDeps) {
  const { logger, store } = deps;
  const gate = { deps, services: deps };
  /** Every open connection by user, registered from the upgrade on (before its handshake). */
  const connections = new Map<string, Set<Connection>>();
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  let unsubscribe: (() => Promise<void>) | undefined;

  async function authenticate(token: string | undefined): Promise<AuthContext> {
    return authenticateToken(gate, token);
  }

  function deliver(push: Push): void {
    const mine = connections.get(push.userId);
    if (!mine) return;
    const message = invocation(push.target, push.arguments);
    const ended = push.closeSessions;
    for (const connection of [...mine]) {
      const ending = ended === null || ended?.includes(connection.sessionId);
      if (ended !== undefined && !ending) continue;
      if (connection.handshaken) connection.socket.send(message);
      if (ending) connection.socket.close(1000, 'Session ended');
    }
  }

  function attach(socket: WebSocket, auth: AuthContext): void {
    const connection: Connection = {
      socket,
      userId: String(auth.userId),
      sessionId: String(auth.sessionId),
      handshaken: false,
    };
    // Registered at once: a session revoked before the handshake still closes this socket.
    let set = connections.get(connection.userId);
    if (!set) connections.set(connection.userId, (set = new Set()));
    set.add(connection);
    let lastHeard = Date.now();
    const handshakeTimer = setTimeout(() => socket.close(1002, 'No handshake'), HANDSHAKE_TIMEOUT_MS);
    const keepAlive = setInterval(() => {
      if (Date.now() - lastHeard > CLIENT_TIMEOUT_MS) {
        socket.terminate();
        return;
      }
      if (connection.handshaken) socket.send(PING);
    }, KEEP_ALIVE_MS);
    keepAlive.unref();
    handshakeTimer.unref();
    const refuse = (reason: string, code: number) => {
      socket.send(closeMessage(reason));
      socket.close(code, 'Malformed message');
    };

    const onMessage = (text: string | undefined) => {
      const messages = text === undefined ? undefined : splitMessages(text);
      if (!messages) return refuse('Messages must be JSON text ending with the record separator.', 1003);
      for (const message of messages) {
        if (!connection.handshaken) {
          const answer = readHandshake(message);
          clearTimeout(handshakeTimer);
          if (!answer.ok) {
            socket.send(`${JSON.stringify({ error: answer.error })}\u001e`);
            socket.close(1002, 'Handshake refused');
            return;
          }
          connection.handshaken = true;
          socket.send(HANDSHAKE_OK);
          continue;
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(message);
        } catch {
          parsed = undefined;
        }
        // `null`, numbers, arrays: not a hub message.
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
          return refuse('A message is not a JSON object.', 1003);
        const { type, invocationId, target } = parsed as { type?: unknown; invocationId?: unknown; target?: unknown };
        if (type === MessageType.Close) {
          socket.close(1000);
          return;
        }
        // The notification hub has no client methods (the original service).
        if (
          (type === MessageType.Invocation || type === MessageType.StreamInvocation) &&
          typeof invocationId === 'string'
        ) {
          socket.send(
            completionError(invocationId.slice(0, 100), `Method '${String(target).slice(0, 100)}' does not exist.`),
          );
        }
      }
    };
    socket.on('message', (data, isBinary) => {
      lastHeard = Date.now();
      // One client's message never takes the process down, whatever it holds.
      try {
        onMessage(isBinary ? undefined : data.toString());
      } catch (error) {
        logger.warn('hub message refused', { error });
        socket.terminate();
      }
    });
    socket.on('close', () => {
      clearTimeout(handshakeTimer);
      clearInterval(keepAlive);
      const mine = connections.get(connection.userId);
      mine?.delete(connection);
      if (mine?.size === 0) connections.delete(connection.userId);
    });
    socket.on('error', (error) => logger.debug('hub socket error', { error }));
  }

  /** Refuses an upgrade with a plain HTTP answer (the socket has no Hono behind it). */
  function refuse(socket: Duplex, status: number, text: string, headers: Record<string, string> = {}): void {
    const extra = Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    socket.end(
      `HTTP/1.1 ${status} ${text}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(text)}\r\n${extra}connection: close\r\n\r\n${text}`,
    );
  }

  return {
    /** Starts delivering pushes published by any node. */
    async start() {
      unsubscribe = await store.subscribe(CHANNEL, (message) => {
        try {
          const parsed = JSON.parse(message) as Push | Push[];
          for (const push of Array.isArray(parsed) ? parsed : [parsed]) deliver(push);
        } catch (error) {
          logger.warn('hub push could not be delivered', { error });
        }
      });
      // Inbox rows (security notices, announcements) reach the user's open connections at once.
      deps.events.on('NotificationsCreated', async (e) => {
        let batch: string[] = [];
        let bytes = 0;
        const flush = async () => {
          if (batch.length > 0) await store.publish(CHANNEL, `[${batch.join(',')}]`);
          batch = [];
          bytes = 0;
        };
        for (const p of e.pushes) {
          const push: Push = { userId: String(p.userId), target: 'ReceiveNotification', arguments: [p.payload] };
          const text = JSON.stringify(push);
          if (batch.length >= PUSHES_PER_MESSAGE || (batch.length > 0 && bytes + text.length > BYTES_PER_MESSAGE))
            await flush();
          batch.push(text);
          bytes += text.length + 1;
        }
        await flush();
      });
      deps.events.on('SessionsRevoked', async (e) => {
        const targetSessionIds = e.sessionIds === null ? null : e.sessionIds.map(String);
        const push: Push = {
          userId: String(e.userId),
          target: 'ForceLogout',
          arguments: [{ reason: e.reason, targetSessionIds }],
          closeSessions: targetSessionIds,
        };
        await store.publish(CHANNEL, JSON.stringify(push));
      });
    },

    /**
     * POST /hubs/notification/negotiate: the connection id and the one transport offered, as the
     * SignalR client reads it (plain JSON, not the envelope; a refusal is the envelope, by status).
     */
    async negotiate(request: Request): Promise<unknown> {
      const url = new URL(request.url);
      await authenticate(hubToken(url, request.headers.get('authorization')));
      const connectionId = randomBytes(16).toString('base64url');
      const version = url.searchParams.get('negotiateVersion') === '1' ? 1 : 0;
      return {
        negotiateVersion: version,
        connectionId,
        ...(version === 1 ? { connectionToken: randomBytes(16).toString('base64url') } : {}),
        availableTransports: [{ transport: 'WebSockets', transferFormats: ['Text'] }],
      };
    },

    /** The HTTP server's `upgrade` event for the hub path; other paths are refused. */
    upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
      const url = new URL(request.url ?? '/', 'http://hub');
      if (url.pathname.replace(/\/+$/, '').toLowerCase() !== NOTIFICATION_HUB) {
        refuse(socket, 404, 'Not Found');
        return;
      }
      if (deps.maintenance.on && !isMaintenanceExempt(url.pathname)) {
        refuse(socket, 503, 'Service Unavailable', { 'Retry-After': String(deps.maintenance.retryAfterSeconds) });
        return;
      }
      const authorization = Array.isArray(request.headers.authorization)
        ? request.headers.authorization[0]
        : request.headers.authorization;
      authenticate(hubToken(url, authorization)).then(
        (auth) => {
          // The client may have gone while the token was checked: nothing to upgrade or count.
          if (socket.destroyed || !socket.writable) return;
          // Counts every open connection, those still in their handshake too. The upgrade below
          // completes and registers synchronously, so a burst cannot slip past the count.
          if ((connections.get(String(auth.userId))?.size ?? 0) >= MAX_CONNECTIONS_PER_USER)
            return refuse(socket, 429, 'Too Many Requests');
          sockets.handleUpgrade(request, socket, head, (ws) => attach(ws, auth));
        },
        (error: unknown) => {
          if (isAppError(error)) return refuse(socket, error.definition.status, 'Unauthorized');
          logger.error('hub upgrade failed', { error });
          refuse(socket, 500, 'Internal Server Error');
        },
      );
    },

    /**
     * Pushes `target` with `args` to every connection of a user, on every node (settings
     * changes and the like: the connections stay open).
     */
    async pushToUser(userId: bigint, target: string, args: unknown[]): Promise<void> {
      const push: Push = { userId: String(userId), target, arguments: args };
      await store.publish(CHANNEL, JSON.stringify(push));
    },

    /** Connections on this node (tests, health). */
    connectionCount(): number {
      let n = 0;
      for (const set of connections.values()) n += set.size;
      return n;
    },

    /** Ends every connection on this node (shutdown: an open socket would hold the HTTP server's close). */
    dropConnections(): void {
      for (const set of connections.values()) for (const c of set) c.socket.terminate();
      connections.clear();
      for (const socket of sockets.clients) socket.terminate();
    },

    async stop() {
      await unsubscribe?.();
      this.dropConnections();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
    },
  };
}

export type NotificationHub = ReturnType<typeof createNotificationHub>;
