import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findProjectRoot } from '../../infra/db/migrator.js';
import type { TestServer } from '../../testing/harness.js';
import { issueCredential, startSignedServer, type IssuedCredential } from './test-kit.js';

/** docs/signed-calls.md's signed call with curl and openssl, run as written against a real server. */

// The tools are part of the machine (see docs/signed-calls.md); a missing one fails here rather than skipping.
const missingTools = ['bash', 'curl', 'openssl', 'awk'].filter(
  (t) => spawnSync('sh', ['-c', `command -v ${t}`]).status !== 0,
);

describe('docs: a complete signed call with curl + openssl', () => {
  let server: TestServer;
  let cred: IssuedCredential;
  beforeAll(async () => {
    server = await startSignedServer();
    cred = await issueCredential(server);
  });
  afterAll(() => server.close());

  it('answers 200 with the body echoed', async () => {
    expect(missingTools).toEqual([]);
    const readme = readFileSync(path.join(findProjectRoot(), 'docs', 'signed-calls.md'), 'utf8');
    const block = /<!-- signed-call-example -->\n```sh\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBeDefined();
    const script = block!
      .replace(/^BASE=.*$/m, `BASE=${server.url}`)
      .replace(/^AK=.*$/m, `AK=${cred.appKey}`)
      .replace(/^SK=.*$/m, `SK=${cred.appSecret}`);
    // Asynchronously: the server answers from this process's event loop.
    const { stdout: out } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], { encoding: 'utf8' });
    const body = JSON.parse(out) as { code: number; data: unknown; isSuccess: boolean };
    expect(body).toMatchObject({ code: 200, isSuccess: true, data: { hello: 'world' } });
  });
});
