import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('npm start', () => {
  it('answers GET /health within 10 s on the embedded defaults, becomes ready, then stops cleanly on SIGTERM', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'portcullis-start-'));
    dirs.push(dataDir);
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      App__LogLevel: 'warn',
    };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    const started = Date.now();
    const child = spawn('npm', ['start', '--silent'], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    let healthy = false;
    try {
      while (Date.now() - started < 10_000) {
        const res = await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined);
        if (res?.status === 200) {
          healthy = ((await res.json()) as { isSuccess: boolean }).isSuccess;
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(healthy, output).toBe(true);
      expect(Date.now() - started).toBeLessThan(10_000);
      // Then the fresh embedded database is created, migrated and seeded, and the API serves.
      let ready = 0;
      while (Date.now() - started < 60_000) {
        ready = (await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => undefined))?.status ?? 0;
        if (ready === 200) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(ready, output).toBe(200);
      const config = await fetch(`http://127.0.0.1:${port}/api/Auth/LoginConfig`);
      expect(config.status).toBe(200);
      // Development tells a newcomer the way in once it is ready.
      for (let i = 0; i < 50 && !output.includes('First command:'); i++) await new Promise((r) => setTimeout(r, 100));
      expect(output).toContain('Seed administrator: admin@portcullis.local / Portcullis@123');
      expect(output).toContain(`curl -sS http://127.0.0.1:${port}/api/Auth/Login`);
    } finally {
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      process.kill(-child.pid!, 'SIGTERM');
      const code = await Promise.race([exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 8000))]);
      if (code === 'timeout') process.kill(-child.pid!, 'SIGKILL');
      expect(code).not.toBe('timeout');
    }
  });
});
