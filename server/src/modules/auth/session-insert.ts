import { eq, sql, type SQL } from 'drizzle-orm';
import { refreshTokens, users, userSessions } from '../../../../db/schema/index.js';
import type { Database } from '../../infra/db/client.js';
import { preparedPerDatabase } from '../../infra/db/prepared.js';
import { LOGIN_SUCCEEDED, LoginResult, loginLogInsert } from './login-log.js';

/** The values of a new session and its first refresh token, in the driver's terms (timestamps as ISO text). */
export interface NewSessionValues {
  id: bigint;
  userId: bigint;
  tenantId: bigint;
  currentAccessTokenJti: string;
  securityStamp: string;
  deviceType: string;
  deviceName: string;
  browser: string;
  operatingSystem: string;
  ipAddress: string;
  loginMethod: string;
  /** Login time, last activity and the user's last login time. */
  now: string;
  expirationTime: string;
  isLocked: boolean;
  lockReason: string | null;
  refreshId: bigint;
  refreshHash: string;
  refreshExpires: string;
}

/** A login's success row of the login log, written by the same statement as its session. */
export interface LoginLogFields {
  logId: bigint;
  logUserName: string;
  loginLocation: string;
  logDevice: string;
  traceId: string | null;
}

const p = (name: keyof NewSessionValues | keyof LoginLogFields): SQL => sql`${sql.placeholder(name)}`;

/**
 * A login without device policies writes its session, its refresh token and (for a login) the
 * user's last login and the success row of the login log in one statement, built once per
 * database: building this query took more CPU than running it, and every statement costs both
 * processes CPU, on every login. The log row so commits exactly when the session does.
 * PostgreSQL runs a data-modifying CTE whether or not the main query reads it.
 */
function prepare(db: Database, recordLogin: boolean) {
  const inserted = db.$with('inserted_session').as(
    db
      .insert(userSessions)
      .values({
        id: p('id'),
        userId: p('userId'),
        tenantId: p('tenantId'),
        currentAccessTokenJti: p('currentAccessTokenJti'),
        securityStamp: p('securityStamp'),
        deviceType: p('deviceType'),
        deviceName: p('deviceName'),
        browser: p('browser'),
        operatingSystem: p('operatingSystem'),
        ipAddress: p('ipAddress'),
        loginMethod: p('loginMethod'),
        loginTime: sql`${sql.placeholder('now')}::timestamptz`,
        lastActivityTime: sql`${sql.placeholder('now')}::timestamptz`,
        expirationTime: p('expirationTime'),
        isLocked: p('isLocked'),
        lockReason: p('lockReason'),
      })
      .returning({ id: userSessions.id }),
  );
  const touched = db.$with('touched_user').as(
    db
      .update(users)
      .set({ lastLoginTime: sql`${sql.placeholder('now')}::timestamptz`, lastLoginIp: p('ipAddress') })
      .where(eq(users.id, sql`${sql.placeholder('userId')}::bigint`))
      .returning({ id: users.id }),
  );
  // The log's own placeholders where its values differ from the session's, shared ones otherwise.
  const logged = db.$with('logged_login').as(
    loginLogInsert(db, true, {
      id: 'logId', sessionId: 'id', loginTime: 'now', loginIp: 'ipAddress', userName: 'logUserName',
      deviceFingerprint: 'logDevice', result: 'logResult', message: 'logMessage',
    }),
  );
  return db
    .with(...(recordLogin ? [inserted, touched, logged] : [inserted]))
    .insert(refreshTokens)
    .select(
      db
        .select({
          id: sql`${sql.placeholder('refreshId')}::bigint`.as('id'),
          sessionId: inserted.id,
          tokenHash: sql`${sql.placeholder('refreshHash')}::varchar`.as('token_hash'),
          issuedTime: sql`${sql.placeholder('now')}::timestamptz`.as('issued_time'),
          expiresTime: sql`${sql.placeholder('refreshExpires')}::timestamptz`.as('expires_time'),
          usedTime: sql`null::timestamptz`.as('used_time'),
        })
        .from(inserted),
    )
    .prepare(recordLogin ? 'insert_login_session' : 'insert_session');
}

const statementsOf = preparedPerDatabase((db) => ({ login: prepare(db, true), plain: prepare(db, false) }));

/**
 * Writes a session with its refresh token in one statement; given a login's log fields, also the
 * user's last login and the login's success row (with its risk flag).
 */
export function insertSession(db: Database, values: NewSessionValues, login?: LoginLogFields): Promise<unknown> {
  const statements = statementsOf(db);
  if (!login) return statements.plain.execute(values as never);
  return statements.login.execute({ ...values, ...login, logResult: LoginResult.Success, logMessage: LOGIN_SUCCEEDED } as never);
}
