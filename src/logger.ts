/** The service's log: the CLI prints it, tests and the desktop shell pass their own or none. */
export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
}

export const silentLogger: Logger = { info() {}, warn() {} };

/** An ISO (or other Date-parsable) time as epoch ms; null for anything else. */
export function parseTs(v: unknown): number | null {
  if (typeof v !== 'string' || v === '') return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : t;
}
