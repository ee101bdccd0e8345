import { eq, sql, type SQL } from 'drizzle-orm';
import { refreshTokens, users, userSessions } from '../../../../db/schema/index.js';
import type { Database } from '../../infra/db/client.js';
import { preparedPerDatabase } from '../../infra/db/prepared.js';

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

const p = (name: keyof NewSessionValues): SQL => sql`${sql.placeholder(name)}`;

/**
 * A login without device policies writes its session, its refresh token and (for a login) the
 * user's last login in one statement, built once per database: building this query took more
 * CPU than running it, on every login. PostgreSQL runs a data-modifying CTE whether or not the
 * main query reads it.
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
  return db
    .with(...(recordLogin ? [inserted, touched] : [inserted]))
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

/** Writes a session with its refresh token (and for a login the user's last login) in one statement. */
export function insertSession(db: Database, values: NewSessionValues, recordLogin: boolean): Promise<unknown> {
  const statements = statementsOf(db);
  return (recordLogin ? statements.login : statements.plain).execute(values as never);
}
