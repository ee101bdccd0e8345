/**
 * Issue 2 target: a trivial derived route (full stack: trace id, culture, zone, maintenance gate,
 * route lookup, tRPC procedure, serializer, envelope) reaches at least 70% of a bare Hono route.
 */
import { load, printTable, startBenchServer, type LoadResult } from './load.js';

export async function run(): Promise<void> {
  const { ports, child } = await startBenchServer();
  const bare = `http://127.0.0.1:${ports.bare}/bare`;
  const derived = `http://127.0.0.1:${ports.app}/api/System/ServerTime`;
  try {
    await load('warm-up', { url: derived, duration: 3 });
    await load('warm-up', { url: bare, duration: 3 });
    const rows: LoadResult[] = [];
    // Alternate so drift (thermal, other load) hits both sides alike.
    for (let round = 1; round <= 2; round++) {
      rows.push(await load(`bare Hono GET /bare (round ${round})`, { url: bare }));
      rows.push(await load(`derived GET /api/System/ServerTime (${round})`, { url: derived, headers: { 'x-timezone': 'Asia/Shanghai' } }));
    }
    printTable(rows);
    const sum = (label: string) => rows.filter((r) => r.label.startsWith(label)).reduce((a, r) => a + r.requestsPerSecond, 0);
    const ratio = sum('derived') / sum('bare');
    process.stdout.write(`\nderived / bare = ${(ratio * 100).toFixed(1)}% (target >= 70%)\n`);
  } finally {
    child.disconnect();
  }
}
