/**
 * Maintenance mode (SPEC Errors rule 6): while on, every request but health, the discovery
 * document and the operator's own switch answers 503 with Retry-After. Switched by
 * configuration, by the upgrade engine while migrations run, and at run time by an operator
 * (modules/maintenance, shared by every node through the database).
 */
export class MaintenanceSwitch {
  private reasons = new Set<string>();
  private operatorRetryAfter: number | undefined;

  constructor(
    initiallyOn = false,
    private readonly defaultRetryAfterSeconds = 30,
  ) {
    if (initiallyOn) this.reasons.add('config');
  }

  /** Several holders may need maintenance at once (config, upgrade); it ends when all release. */
  enable(reason: string): void {
    this.reasons.add(reason);
  }

  disable(reason: string): void {
    this.reasons.delete(reason);
  }

  /**
   * The operator's run-time switch. Turning it off also ends the maintenance the configuration
   * started with (that is what an operator turning maintenance off means), never an upgrade's.
   */
  setByOperator(on: boolean, retryAfterSeconds?: number): void {
    if (on) {
      this.reasons.add('operator');
      this.operatorRetryAfter = retryAfterSeconds;
    } else {
      this.reasons.delete('operator');
      this.reasons.delete('config');
      this.operatorRetryAfter = undefined;
    }
  }

  get on(): boolean {
    return this.reasons.size > 0;
  }

  /** The operator's announced wait while the operator holds maintenance, else the configured one. */
  get retryAfterSeconds(): number {
    return (this.reasons.has('operator') ? this.operatorRetryAfter : undefined) ?? this.defaultRetryAfterSeconds;
  }

  get activeReasons(): string[] {
    return [...this.reasons];
  }
}

/** Paths that answer during maintenance: liveness/readiness, discovery documents, the operator's switch. */
export function isMaintenanceExempt(path: string): boolean {
  const p = path.toLowerCase();
  return p === '/health' || p.startsWith('/health/') || p.startsWith('/.well-known/') || p === '/ops/maintenance';
}
