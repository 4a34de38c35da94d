/**
 * Throughput at many connections with autocannon (bounded in time), for the service and for
 * the bare-Fastify ceiling in the same run.
 */
import autocannon from 'autocannon';

export interface Throughput {
  url: string;
  connections: number;
  seconds: number;
  requestsPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export async function throughput(url: string, connections = 50, seconds = 10): Promise<Throughput> {
  // A short warm-up so JIT and caches are in their steady state before the measured run.
  await autocannon({ url, connections: 10, duration: 2 });
  const r = await autocannon({ url, connections, duration: seconds });
  return {
    url,
    connections,
    seconds,
    requestsPerSec: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}
