/**
 * Maintenance mode (SPEC Errors rule 6): while on, every request but health and the discovery
 * document answers 503 with Retry-After. Switched by configuration, by the upgrade engine while
 * migrations run, and at run time by an operator.
 */
export class MaintenanceSwitch {
  private reasons = new Set<string>();

  constructor(initiallyOn = false, readonly retryAfterSeconds = 30) {
    if (initiallyOn) this.reasons.add('config');
  }

  /** Several holders may need maintenance at once (config, upgrade); it ends when all release. */
  enable(reason: string): void {
    this.reasons.add(reason);
  }

  disable(reason: string): void {
    this.reasons.delete(reason);
  }

  get on(): boolean {
    return this.reasons.size > 0;
  }

  get activeReasons(): string[] {
    return [...this.reasons];
  }
}

/** Paths that answer during maintenance: liveness/readiness and discovery documents. */
export function isMaintenanceExempt(path: string): boolean {
  const p = path.toLowerCase();
  return p === '/health' || p.startsWith('/health/') || p.startsWith('/.well-known/');
}
