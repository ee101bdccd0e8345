import { createServer, type Server, type Socket } from 'node:net';
import { sql } from 'drizzle-orm';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { TRPCError } from '@trpc/server';
import { afterAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, postgresErrorCode } from './errors.js';

/**
 * Which failures say the database cannot be reached or cannot serve now (worth a retry in a
 * moment: 503) rather than that a statement failed. The driver's errors are produced for real
 * where that is cheap without a PostgreSQL (nothing listening, a server that never answers, an
 * ended pool); the rest are built the way postgres.js builds them (src/errors.js).
 */

const opened: Array<postgres.Sql> = [];
const servers: Server[] = [];
const sockets: Socket[] = [];
afterAll(async () => {
  await Promise.all(opened.map((client) => client.end({ timeout: 0 })));
  for (const socket of sockets) socket.destroy();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

function client(url: string, options: postgres.Options<Record<string, postgres.PostgresType>> = {}): postgres.Sql {
  const sqlClient = postgres(url, { max: 1, onnotice: () => {}, ...options });
  opened.push(sqlClient);
  return sqlClient;
}

async function rejection(promise: PromiseLike<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

async function listening(handler: (socket: Socket) => void): Promise<number> {
  const server = createServer((socket) => {
    sockets.push(socket);
    handler(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

/** As postgres.js builds its connection errors: code and errno both the name. */
function connectionError(code: string): Error {
  return Object.assign(new Error(`write ${code} 127.0.0.1:5432`), {
    code,
    errno: code,
    address: '127.0.0.1',
    port: 5432,
  });
}

/** As Node builds a socket error. */
function systemError(code: string, syscall = 'read'): Error {
  return Object.assign(new Error(`${syscall} ${code}`), { code, errno: -1, syscall });
}

function postgresError(code: string, message = 'server message'): Error {
  return new postgres.PostgresError({ code, severity: 'FATAL', message } as never);
}

describe('isDatabaseUnavailable', () => {
  it('a refused connection, raw from postgres.js and wrapped by drizzle (cause chain)', async () => {
    const refused = client('postgres://u@127.0.0.1:1/db');
    const raw = await rejection(refused`select 1`);
    expect(raw).toMatchObject({ code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailable(raw)).toBe(true);
    const wrapped = await rejection(drizzle(refused).execute(sql`select 1`));
    expect(wrapped).toBeInstanceOf(DrizzleQueryError);
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
    expect(isDatabaseUnavailable(await rejection(refused.begin((tx) => tx`select 1`)))).toBe(true);
    // tRPC wraps whatever a procedure throws.
    expect(isDatabaseUnavailable(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: wrapped }))).toBe(true);
  });

  it('a server that accepts but never answers (CONNECT_TIMEOUT)', async () => {
    const port = await listening(() => {});
    const error = await rejection(client(`postgres://u@127.0.0.1:${port}/db`, { connect_timeout: 1 })`select 1`);
    expect(error).toMatchObject({ code: 'CONNECT_TIMEOUT' });
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('a pool that was ended (CONNECTION_ENDED)', async () => {
    const ended = client('postgres://u@127.0.0.1:1/db');
    await ended.end();
    const error = await rejection(ended`select 1`);
    expect(error).toMatchObject({ code: 'CONNECTION_ENDED' });
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each(['CONNECTION_CLOSED', 'CONNECTION_DESTROYED', 'CONNECTION_ENDED', 'CONNECT_TIMEOUT'])(
    'postgres.js %s, raw and wrapped',
    (code) => {
      expect(isDatabaseUnavailable(connectionError(code))).toBe(true);
      expect(isDatabaseUnavailable(new DrizzleQueryError('select 1', [], connectionError(code)))).toBe(true);
    },
  );

  it.each(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'])(
    'the socket: %s, raw and wrapped',
    (code) => {
      expect(isDatabaseUnavailable(systemError(code))).toBe(true);
      expect(isDatabaseUnavailable(new DrizzleQueryError('select 1', [], systemError(code)))).toBe(true);
    },
  );

  it('every address of a host refused (an AggregateError from connecting to each)', () => {
    const aggregate = Object.assign(
      new AggregateError([systemError('ECONNREFUSED', 'connect'), systemError('ECONNREFUSED', 'connect')], ''),
      { code: 'ECONNREFUSED' },
    );
    expect(isDatabaseUnavailable(aggregate)).toBe(true);
    // Without a code of its own: one of its errors says it.
    expect(
      isDatabaseUnavailable(new AggregateError([new Error('other'), systemError('ETIMEDOUT', 'connect')], '')),
    ).toBe(true);
  });

  it.each([
    ['08000', 'connection exception'],
    ['08003', 'connection does not exist'],
    ['08006', 'connection failure'],
    ['08001', 'sqlclient unable to establish sqlconnection'],
    ['08004', 'sqlserver rejected establishment of sqlconnection'],
    ['08P01', 'protocol violation'],
    ['57P01', 'terminating connection due to administrator command'],
    ['57P02', 'terminating connection due to crash of another server process'],
    ['57P03', 'the database system is starting up'],
    ['53300', 'sorry, too many clients already'],
  ])('PostgreSQL %s (%s), raw and wrapped', (code, message) => {
    expect(isDatabaseUnavailable(postgresError(code, message))).toBe(true);
    expect(isDatabaseUnavailable(new DrizzleQueryError('select 1', [], postgresError(code, message)))).toBe(true);
  });

  it.each([
    ['23505', 'a unique violation'],
    ['40001', 'a serialization failure'],
    ['42P01', 'an unknown table'],
    ['57014', 'a cancelled statement'],
    ['53100', 'a full disk'],
    ['XX000', 'an internal error'],
  ])('not PostgreSQL %s (%s): the statement failed, the server serves', (code) => {
    expect(isDatabaseUnavailable(postgresError(code))).toBe(false);
    expect(isDatabaseUnavailable(new DrizzleQueryError('select 1', [], postgresError(code)))).toBe(false);
  });

  it('not other failures', () => {
    for (const error of [
      new Error('boom'),
      new TypeError('x is undefined'),
      systemError('ENOENT', 'open'),
      systemError('EACCES', 'open'),
      'ECONNREFUSED',
      undefined,
      null,
      { code: 'MAX_PARAMETERS_EXCEEDED' },
    ]) {
      expect(isDatabaseUnavailable(error)).toBe(false);
    }
  });

  it('ends on a cause chain that loops', () => {
    const a = new Error('a') as Error & { cause?: unknown };
    const b = new Error('b', { cause: a });
    a.cause = b;
    expect(isDatabaseUnavailable(a)).toBe(false);
  });
});

describe('postgresErrorCode', () => {
  it('reads the SQLSTATE of PostgreSQL errors, raw and wrapped', () => {
    expect(postgresErrorCode(postgresError('23505'))).toBe('23505');
    expect(postgresErrorCode(new DrizzleQueryError('insert', [], postgresError('40P01')))).toBe('40P01');
  });

  it('takes no socket error code for a SQLSTATE, though EPIPE has the shape of one', () => {
    expect(postgresErrorCode(systemError('EPIPE', 'write'))).toBeUndefined();
    expect(postgresErrorCode(new DrizzleQueryError('select 1', [], systemError('EPIPE', 'write')))).toBeUndefined();
    expect(postgresErrorCode(connectionError('CONNECTION_CLOSED'))).toBeUndefined();
  });
});
