/** The response envelope every Portcullis endpoint answers with. */
export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data?: T;
  traceId?: string;
  timestamp: string;
  isSuccess: boolean;
}

export interface FieldError {
  field: string;
  message: string;
}

/** A failed envelope as an exception. `text` follows the client rule: data first, then message. */
export class PortcullisError extends Error {
  readonly code: number;
  readonly status: number;
  readonly data: unknown;
  readonly traceId?: string;
  readonly envelope: Envelope;

  constructor(envelope: Envelope, status: number) {
    super(errorText(envelope));
    this.name = 'PortcullisError';
    this.code = envelope.code;
    this.status = status;
    this.data = envelope.data;
    this.traceId = envelope.traceId;
    this.envelope = envelope;
  }

  /** Per-field detail of a validation failure, when that is what data holds. */
  get fieldErrors(): FieldError[] {
    return Array.isArray(this.data) ? (this.data as FieldError[]) : [];
  }
}

/** The text to show for a failed envelope: a string in data wins, then message. */
export function errorText(envelope: Envelope): string {
  return typeof envelope.data === 'string' && envelope.data ? envelope.data : envelope.message;
}

/** Success is decided by isSuccess, never by the presence of data. */
export function unwrap<T>(envelope: Envelope<T>, status = envelope.code): T {
  if (!envelope.isSuccess) throw new PortcullisError(envelope as Envelope, status);
  return envelope.data as T;
}
