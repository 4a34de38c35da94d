/**
 * Rate limits as the UI's status bar sees them (issue 5): the inbound limiter's table and the
 * outbound scheduler's state per upstream host (queued, in flight, budget left per window,
 * online or offline). The route is routes.ts's `limitsRoutes`.
 */
import { op, type DeclsFor } from './define.ts';
import type { limitsRoutes } from './routes.ts';

export interface WindowStatus {
  name: string;
  /** The table's figure per window. */
  limit: number;
  /** What the scheduler allows itself: the limit less its safety margin. */
  budget: number;
  used: number;
  remaining: number;
  /** Seconds until the oldest counted request leaves the window. */
  resetS: number;
}

export interface HostStatus {
  host: 'gamma' | 'clob' | 'data';
  online: boolean;
  circuit: 'closed' | 'open' | 'half-open';
  queued: { user: number; background: number };
  inFlight: number;
  /** Consecutive failed attempts. */
  failures: number;
  /** Offline: seconds until the next probe. */
  probeInS: number | null;
  windows: WindowStatus[];
}

export interface SchedulerStatus {
  margin: number;
  /** Attempts on the wire at once, per host. */
  concurrency: number;
  hosts: HostStatus[];
}

export interface LimitsStatus {
  /** false: started with `--no-limits`. */
  inbound: boolean;
  /** The windows in force (section 8, or the `--limits` file). */
  windows: { name: string; limit: number; seconds: number; routes: string[] }[];
  /** null when the service never contacts the upstream (`--offline`). */
  outbound: SchedulerStatus | null;
}

export const limitsOperations = {
  'limits.status': op<LimitsStatus>()({}),
} satisfies DeclsFor<typeof limitsRoutes>;
