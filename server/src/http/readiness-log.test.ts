import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load.js';
import { systemClock } from '../infra/clock.js';
import { createLogger } from '../infra/logger.js';
import { createHost } from './host.js';
import { MaintenanceSwitch } from './maintenance.js';

describe('readiness while the service starts', () => {
  it('answers 503 and logs one line per failed check with its reason, never a stack', async () => {
    const lines: string[] = [];
    const host = createHost({
      config: loadConfig({}, { App: { Env: 'test' } }),
      logger: createLogger({ level: 'debug', sink: (line) => lines.push(line) }),
      clock: systemClock,
      maintenance: new MaintenanceSwitch(true, 5),
      readiness: [{ name: 'startup', check: () => Promise.reject(new Error('starting')) }],
    });
    const res = await host.fetch(new Request('http://host/health/ready'));
    expect(res.status).toBe(503);
    const warned = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === 'readiness check failed');
    expect(warned).toEqual([expect.objectContaining({ check: 'startup', reason: 'starting' })]);
    expect(lines.join('\n')).not.toMatch(/\bat .*\.(ts|js|mjs):\d+/);
  });
});
