import { and, count, eq, gt } from 'drizzle-orm';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { userSessions } from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import type { RouteEntry } from '../../routes/table.js';
import type { NotificationHub } from '../hubs/notification-hub.js';
import { SessionStatus } from '../auth/session/session-state.js';

type Deps = Pick<AppDeps, 'db' | 'events' | 'clock' | 'readiness' | 'config' | 'hasher'> & {
  notificationHub: Pick<NotificationHub, 'connectionCount'>;
};

/** Paths outside /api, by prefix; anything else is `other`, so that no client can add label values. */
const FIXED_ROUTES = [
  '/health/ready',
  '/health',
  '/trpc',
  '/hubs',
  '/swagger',
  '/openapi',
  '/ops/maintenance',
  '/metrics',
  '/.well-known',
];

/**
 * Prometheus metrics of one server: a registry of its own (tests run several servers in one
 * process), request counts and latencies labelled by the derived route (the route table's path,
 * never the raw one), login results by method, and gauges read at scrape time. Process metrics
 * (CPU, memory, event loop delay) start with the first scrape, so a server nobody scrapes pays
 * nothing for them.
 */
export function createMetrics(deps: Deps) {
  const registry = new Registry();
  const registers = [registry];
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'portcullis_http_requests_total',
    help: 'HTTP requests answered, by derived route and status',
    labelNames,
    registers,
  });
  const latency = new Histogram({
    name: 'portcullis_http_request_duration_seconds',
    help: 'Time from the request reaching the front door to its answer',
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const logins = new Counter({
    name: 'portcullis_logins_total',
    help: 'Login attempts past the throttle, by method and result',
    labelNames: ['method', 'result'],
    registers,
  });
  deps.events.on('AuthLoginSucceeded', async (e) => void logins.inc({ method: e.method, result: 'Success' }));
  deps.events.on(
    'AuthTwoFactorRequired',
    async (e) => void logins.inc({ method: e.method, result: 'TwoFactorRequired' }),
  );
  deps.events.on('AuthLoginFailed', async (e) => void logins.inc({ method: e.method, result: e.result }));

  new Gauge({
    name: 'portcullis_active_sessions',
    help: 'Active, unexpired sessions (all nodes: read from the database)',
    registers,
    async collect() {
      const [row] = await deps.db
        .select({ n: count() })
        .from(userSessions)
        .where(and(eq(userSessions.status, SessionStatus.Active), gt(userSessions.expirationTime, deps.clock.now())));
      this.set(Number(row?.n ?? 0));
    },
  });
  new Gauge({
    name: 'portcullis_hub_connections',
    help: 'Open hub connections on this node',
    registers,
    collect() {
      this.set(deps.notificationHub.connectionCount());
    },
  });
  new Gauge({
    name: 'portcullis_password_hash_jobs',
    help: 'argon2 jobs on this node: computing (active), queued (waiting), and the threads (limit)',
    labelNames: ['state'],
    registers,
    collect() {
      const load = deps.hasher.load();
      this.set({ state: 'active' }, load.active);
      this.set({ state: 'waiting' }, load.waiting);
      this.set({ state: 'limit' }, load.limit);
    },
  });
  new Gauge({
    name: 'portcullis_database_pool_max_connections',
    help: 'Connections this node may open to PostgreSQL (1 on the embedded database)',
    registers,
    collect() {
      this.set(deps.config.Database.Url ? deps.config.Database.MaxConnections : 1);
    },
  });
  new Gauge({
    name: 'portcullis_dependency_up',
    help: 'Whether the readiness check of a dependency (database, store) passed at this scrape',
    labelNames: ['dependency'],
    registers,
    async collect() {
      for (const { name, check } of deps.readiness)
        this.set(
          { dependency: name },
          await check().then(
            () => 1,
            () => 0,
          ),
        );
    },
  });

  let routes = new Map<string, string>();
  let processMetrics = false;
  return {
    registry,
    /** The route table's paths, so a request can be labelled by its derived route. */
    useRoutes(table: RouteEntry[]): void {
      routes = new Map(table.map((e) => [`${e.method} ${e.path.toLowerCase()}`, e.path]));
    },
    routeOf(method: string, path: string): string {
      if (path.length >= 5 && path.slice(0, 5).toLowerCase() === '/api/')
        return routes.get(`${method} ${path.toLowerCase().replace(/\/+$/, '')}`) ?? 'unmatched';
      return FIXED_ROUTES.find((prefix) => path === prefix || path.startsWith(`${prefix}/`)) ?? 'other';
    },
    observe(method: string, path: string, status: number, seconds: number): void {
      const labels = { method, route: this.routeOf(method, path), status: String(status) };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
    async render(): Promise<{ contentType: string; body: string }> {
      if (!processMetrics) {
        processMetrics = true;
        collectDefaultMetrics({ register: registry, prefix: 'portcullis_' });
      }
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
