import { DrizzleQueryError } from 'drizzle-orm/errors';
import postgres from 'postgres';
import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../infra/clock.js';
import { DATABASE_RETRY_AFTER_SECONDS, errorToEnvelope, type ErrorContext } from './to-envelope.js';

/** Database failures as the envelope answers them (SPEC Errors: 13000 DatabaseError). */

const ctx: ErrorContext = { culture: 'en-US', traceId: 'trace-1', deps: { clock: new ManualClock() } };

const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:5432'), {
    code: 'ECONNREFUSED',
    errno: -111,
    syscall: 'connect',
    address: '10.0.0.7',
    port: 5432,
  });
const closed = () =>
  Object.assign(new Error('write CONNECTION_CLOSED 10.0.0.7:5432'), {
    code: 'CONNECTION_CLOSED',
    errno: 'CONNECTION_CLOSED',
    address: '10.0.0.7',
    port: 5432,
  });
const pgError = (code: string, message: string) =>
  new postgres.PostgresError({ code, severity: 'ERROR', message } as never);

describe('a database that cannot be reached or cannot serve now', () => {
  it.each([
    ['a refused connection', refused()],
    [
      'a connection closed under a query, wrapped by drizzle',
      new DrizzleQueryError('select "email" from "users"', ['a@b.c'], closed()),
    ],
    [
      'an administrator shutdown, wrapped by tRPC',
      new TRPCError({
        code: 'INTERNAL_SERVER_ERROR',
        cause: pgError('57P01', 'terminating connection due to administrator command'),
      }),
    ],
    ['too many connections', pgError('53300', 'sorry, too many clients already')],
    ['a server starting up', pgError('57P03', 'the database system is starting up')],
  ])('%s: 503, code 13000, Retry-After, the trace id, nothing of the driver', (_, error) => {
    const result = errorToEnvelope(error, ctx);
    expect(result.status).toBe(503);
    expect(result.headers).toEqual({ 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) });
    expect(result.envelope).toMatchObject({
      code: 13000,
      isSuccess: false,
      traceId: 'trace-1',
      data: `The database is unavailable at the moment; try again in ${DATABASE_RETRY_AFTER_SECONDS} seconds (trace id trace-1).`,
    });
    expect(JSON.stringify(result.envelope)).not.toMatch(
      /ECONNREFUSED|CONNECTION_CLOSED|10\.0\.0\.7|5432|users|administrator|clients|starting/,
    );
    // Logged with its cause for the operator.
    expect(result.unexpected).toBe(true);
  });
});

describe('other database failures keep their answers', () => {
  it('a plain query failure: 500 with code 13000, no Retry-After, nothing of the driver', () => {
    const result = errorToEnvelope(
      new DrizzleQueryError('select * from "nope"', [], pgError('42P01', 'relation "nope" does not exist')),
      ctx,
    );
    expect(result.status).toBe(500);
    expect(result.headers).toEqual({});
    expect(result.envelope).toMatchObject({ code: 13000, data: 'Data access failed (trace id trace-1).' });
    expect(JSON.stringify(result.envelope)).not.toMatch(/nope/);
  });

  it('a unique violation 409, a serialization failure 409, text the database cannot hold 400', () => {
    expect(errorToEnvelope(pgError('23505', 'duplicate key'), ctx)).toMatchObject({
      status: 409,
      envelope: { code: 409 },
    });
    expect(
      errorToEnvelope(new DrizzleQueryError('update', [], pgError('40001', 'could not serialize')), ctx),
    ).toMatchObject({ status: 409, envelope: { code: 409 } });
    expect(errorToEnvelope(pgError('22021', 'invalid byte sequence'), ctx)).toMatchObject({
      status: 400,
      envelope: { code: 400 },
    });
  });

  it('an error that is not the database: 500 with code 500', () => {
    expect(errorToEnvelope(new TypeError('x is undefined'), ctx)).toMatchObject({
      status: 500,
      envelope: { code: 500 },
    });
  });
});
