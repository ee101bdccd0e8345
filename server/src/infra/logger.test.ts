import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger({
    level: 'debug',
    sink: (line) => lines.push(JSON.parse(line) as Record<string, unknown>),
  });
  return { logger, lines };
}

describe('logger', () => {
  it('replaces sensitive fields at any depth and credentials in URLs', () => {
    const { logger, lines } = capture();
    logger.info('x', {
      request: { headers: { authorization: 'Bearer abc' }, url: '/cb?code=123&state=s1&x=1' },
      user: { password: 'p' },
    });
    const text = JSON.stringify(lines[0]);
    expect(text).not.toContain('abc');
    expect(text).not.toContain('123');
    expect(text).not.toContain('s1');
    expect(text).toContain('x=1');
  });

  it("writes a failed query's statement and its driver cause, never the parameters", () => {
    const { logger, lines } = capture();
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "ux_users_email"'), {
      code: '23505',
      constraint_name: 'ux_users_email',
      detail: 'Key (email)=(alice@example.com) already exists.',
    });
    const error = new DrizzleQueryError(
      'insert into "users" ("email", "password_hash") values ($1, $2)',
      ['alice@example.com', '$argon2id$secret-hash'],
      cause,
    );
    logger.error('request failed', { error });
    const logged = lines[0]!.error as Record<string, unknown>;
    expect(logged.message).toBe('Failed query: insert into "users" ("email", "password_hash") values ($1, $2)');
    expect(logged.cause).toMatchObject({
      code: '23505',
      constraint_name: 'ux_users_email',
      message: expect.stringContaining('ux_users_email'),
    });
    const text = JSON.stringify(lines[0]);
    expect(text).not.toContain('alice@example.com');
    expect(text).not.toContain('secret-hash');
  });
});
