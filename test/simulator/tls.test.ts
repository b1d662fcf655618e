import { Agent, request } from 'undici';

import { parseCliArgs } from './args';
import { type Simulator, startSimulator } from './index';
import { selfSignedCertificate } from './tlsCertificate';

describe('simulator over TLS', () => {
	const certificate = selfSignedCertificate();
	let sim: Simulator;

	beforeAll(async () => {
		sim = await startSimulator({ tls: { cert: certificate.cert, key: certificate.key } });
	});
	afterAll(async () => await sim.stop());

	const health = (dispatcher: Agent) =>
		request(`${sim.url}/health`, { dispatcher }).then(async (r) => {
			await r.body.dump();
			return r.statusCode;
		});

	it('serves HTTPS on 127.0.0.1 with a certificate a client can trust as an extra CA', async () => {
		expect(sim.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
		const trusting = new Agent({ connect: { ca: certificate.cert } });
		expect(await health(trusting)).toBe(200);
		await trusting.close();
	});

	it('refuses a client that does not trust it (nothing skips certificate checks)', async () => {
		const strict = new Agent();
		await expect(health(strict)).rejects.toThrow(/self[- ]signed|certificate/i);
		await strict.close();
	});

	it('counts requests on new and on reused connections', async () => {
		sim.reset();
		const keepAlive = new Agent({ connect: { ca: certificate.cert }, pipelining: 1 });
		for (let i = 0; i < 3; i++) await health(keepAlive);
		await keepAlive.close();
		const kept = { ...sim.connections };
		expect(kept.opened + kept.reused).toBe(3);
		expect(kept.reused).toBeGreaterThanOrEqual(1);
		// A new client per request, as n8n's request helper: every request on a new connection.
		for (let i = 0; i < 2; i++) {
			const fresh = new Agent({ connect: { ca: certificate.cert } });
			await health(fresh);
			await fresh.close();
		}
		expect(sim.connections).toEqual({ opened: kept.opened + 2, reused: kept.reused });
	});

	it('reads --tls-cert and --tls-key as PEM files, only together', () => {
		const { config } = parseCliArgs([
			'--tls-cert',
			certificate.certFile,
			'--tls-key',
			certificate.keyFile,
		]);
		expect(config.tls).toEqual({ cert: certificate.cert, key: certificate.key });
		expect(() => parseCliArgs(['--tls-cert', certificate.certFile])).toThrow(/go together/);
	});
});
