import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findProjectRoot } from '../server/src/infra/db/migrator.js';
import { startTestServer, type TestServer } from '../server/src/testing/harness.js';

/**
 * The README's first session, run as a newcomer would: its start command's settings configure a
 * real server, then its shell blocks run one after another in one bash, and every `# =>` line
 * must be what the command above it printed.
 */

const readme = readFileSync(path.join(findProjectRoot(), 'README.md'), 'utf8');
const shellBlock = (marker: string) =>
  [...readme.matchAll(new RegExp(`<!-- ${marker} -->\\n\`\`\`sh\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);

/** `A=1 B=2 \ npm start` -> { A: '1', B: '2' }. */
function startSettings(command: string): Record<string, string> {
  const words = command.replaceAll('\\\n', ' ').split(/\s+/).filter(Boolean);
  const settings: Record<string, string> = {};
  for (const word of words) {
    const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(word);
    if (!assignment) break;
    settings[assignment[1]!] = assignment[2]!;
  }
  return settings;
}

describe('README: a first session with curl', () => {
  const [start] = shellBlock('walkthrough-start');
  const blocks = shellBlock('walkthrough');
  let server: TestServer;
  beforeAll(async () => {
    expect(start).toMatch(/npm start\s*$/);
    server = await startTestServer({ env: startSettings(start!) });
  });
  afterAll(() => server?.close());

  it('has the start command and five steps, each with its expected output', () => {
    expect(Object.keys(startSettings(start!))).toEqual([
      'Saas__Auth__CaptchaEnabled',
      'OpenApiSecurity__IsEnabled',
      'OpenApiSecurity__ProtectedPathPrefixes__0',
    ]);
    expect(blocks).toHaveLength(5);
    for (const block of blocks) expect(block).toMatch(/^# => /m);
  });

  it('runs every step as written and prints what the README says', async () => {
    const separator = '::next-step::';
    const script = blocks
      .map((block) => block.replace(/^BASE=.*$/m, `BASE=${server.url}`))
      .join(`\necho '${separator}'\n`);
    const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], { encoding: 'utf8' });
    const outputs = stdout.split(`${separator}\n`);
    expect(outputs).toHaveLength(blocks.length);
    blocks.forEach((block, i) => {
      const expected = [...block.matchAll(/^# => (.*)$/gm)].map((m) => m[1]!);
      const printed = outputs[i]!.trim().split('\n');
      expect(printed.slice(-expected.length)).toEqual(expected);
    });
  });
});
