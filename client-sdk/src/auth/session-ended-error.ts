import { PortcullisError, type Envelope } from '../envelope.js';

/**
 * The session is over: a refresh was refused, so the local tokens were cleared and the user has
 * to log in again. Requests waiting on that refresh reject with it (for tRPC, as the `cause` of
 * the TRPCClientError). It is a PortcullisError, so code that handles those handles this too.
 */
export class SessionEndedError extends PortcullisError {
  constructor(envelope: Envelope, status: number) {
    super(envelope, status);
    this.name = 'SessionEndedError';
  }
}

/**
 * Why the client signed out: the user asked (`logout`), the user deactivated or deleted the
 * account (`account-ended`), or the server refused a refresh.
 */
export type LoggedOutEvent =
  | { reason: 'logout' }
  | { reason: 'account-ended' }
  | { reason: 'refresh-failed'; error: SessionEndedError };
