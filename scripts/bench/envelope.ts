/**
 * Target: a trivial derived route (full stack: trace id, culture, zone, maintenance gate,
 * route lookup, tRPC procedure, serializer, envelope) reaches at least 70% of a bare Hono route.
 */
import { alternate, load, percentOf, startBenchServer } from './load.js';

export async function run(): Promise<void> {
  const { ports, child } = await startBenchServer();
  const bare = `http://127.0.0.1:${ports.bare}/bare`;
  const bareCoalesced = `http://127.0.0.1:${ports.bareCoalesced}/bare`;
  const derived = `http://127.0.0.1:${ports.app}/api/System/ServerTime`;
  try {
    await load('warm-up', { url: derived, duration: 3 });
    await load('warm-up', { url: bare, duration: 3 });
    await load('warm-up', { url: bareCoalesced, duration: 3 });
    const rows = await alternate([
      { label: 'bare Hono GET /bare', options: { url: bare } },
      { label: 'bare Hono, coalesced as the app', options: { url: bareCoalesced } },
      {
        label: 'derived GET /api/System/ServerTime',
        options: { url: derived, headers: { 'x-timezone': 'Asia/Shanghai' } },
      },
    ]);
    process.stdout.write(
      `\nderived / bare = ${percentOf(rows, 'derived GET /api/System/ServerTime', 'bare Hono GET /bare')} (target >= 70%)\n`,
    );
    process.stdout.write(
      `derived / bare with the same coalescing = ${percentOf(rows, 'derived GET /api/System/ServerTime', 'bare Hono, coalesced as the app')} (for comparison)\n`,
    );
  } finally {
    child.disconnect();
  }
}
