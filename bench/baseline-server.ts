/**
 * The ceiling: a bare Fastify route answering a constant JSON body of a given size, run as
 * its own process like the service, so latency compares like with like.
 */
import Fastify from 'fastify';

const bytes = Number(process.argv[2] ?? 10_000);
const item = JSON.stringify({ id: '1', question: 'x'.repeat(100) });
const items: string[] = [];
while (items.join(',').length + item.length < bytes - 2) items.push(item);
const body = `[${items.join(',')}]`;

const app = Fastify({ logger: false });
app.get('/markets', async (_req, reply) => reply.type('application/json').send(body));
await app.listen({ host: '127.0.0.1', port: 0 });
const addr = app.server.address();
console.log(`baseline listening on http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0} (${body.length} bytes)`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
