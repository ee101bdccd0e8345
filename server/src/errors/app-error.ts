import { defineMessages, type LocalizedText } from '../i18n/messages.js';

/** A registered error: the envelope code, the HTTP status and the key of its localized text. */
export interface ErrorDefinition {
  readonly name: string;
  readonly status: number;
  readonly code: number;
  readonly messageKey: string;
}

export interface ErrorSpec {
  /** HTTP status; also the envelope code unless `code` is given. */
  status: number;
  /** Business code when it differs from the status (10001-14000). */
  code?: number;
  text: LocalizedText;
}

const registry = new Map<string, ErrorDefinition>();

/**
 * Registers a module's errors. Names are UPPER_SNAKE and namespaced by module, so the registry
 * doubles as the documented catalogue of every failure the service can answer.
 */
export function defineErrors<K extends string>(
  namespace: string,
  specs: Record<K, ErrorSpec>,
): Record<K, ErrorDefinition> {
  const texts = Object.fromEntries(Object.entries<ErrorSpec>(specs).map(([k, s]) => [k, s.text])) as Record<
    K,
    LocalizedText
  >;
  const keys = defineMessages(`error.${namespace}`, texts);
  const defs = {} as Record<K, ErrorDefinition>;
  for (const [name, spec] of Object.entries<ErrorSpec>(specs) as Array<[K, ErrorSpec]>) {
    const def: ErrorDefinition = Object.freeze({
      name: `${namespace}.${name}`,
      status: spec.status,
      code: spec.code ?? spec.status,
      messageKey: keys[name],
    });
    registry.set(def.name, def);
    defs[name] = def;
  }
  return defs;
}

export interface AppErrorOptions {
  /** Values for `{placeholders}` in the localized text. */
  params?: Record<string, unknown>;
  /**
   * Structured detail for `data` (for example the lock detail of a 423). When given, `message`
   * carries the localized text; otherwise the text goes to `data` and `message` is the code's.
   */
  detail?: unknown;
  /** Response headers such as Retry-After. */
  headers?: Record<string, string>;
  cause?: unknown;
}

/** The one error type services throw; mapped to the envelope in errors/to-envelope.ts. */
export class AppError extends Error {
  readonly definition: ErrorDefinition;
  readonly params?: Record<string, unknown>;
  readonly detail?: unknown;
  readonly headers?: Record<string, string>;

  constructor(definition: ErrorDefinition, options: AppErrorOptions = {}) {
    super(definition.name, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.definition = definition;
    this.params = options.params;
    this.detail = options.detail;
    this.headers = options.headers;
  }
}

export function appError(definition: ErrorDefinition, options?: AppErrorOptions): AppError {
  return new AppError(definition, options);
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

export function allErrors(): ReadonlyMap<string, ErrorDefinition> {
  return registry;
}
