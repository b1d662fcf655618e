import { request } from 'undici';

import type { ProviderAccess } from '../cases/handBuiltWorkflows';

/**
 * The best any client can do against a provider that admits `limit` campaign requests at once:
 * it knows the limit, so exactly `limit` are in flight from the first request to the last and none
 * is refused. It plans nothing and runs no workflow; like n8n's request helper it opens a new
 * connection for each request (no keep-alive). What it takes over `bodies.length / limit × latency`
 * is the provider's and the loopback's own time per request on this machine, which a formula
 * counts as zero: the rate-limited case measures it side by side as its ideal.
 */
export async function postAtTheLimit(
	access: ProviderAccess,
	bodies: unknown[],
	limit: number,
): Promise<{ refused: number; failed: number }> {
	const token = await fetchToken(access);
	let next = 0;
	let refused = 0;
	let failed = 0;
	const worker = async () => {
		while (next < bodies.length) {
			const body = bodies[next++];
			const response = await request(`${access.url}/api/v2/Campaign`, {
				method: 'POST',
				reset: true,
				headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
				body: JSON.stringify(body),
			});
			await response.body.text();
			if (response.statusCode === 429) refused++;
			else if (response.statusCode !== 200) failed++;
		}
	};
	await Promise.all(Array.from({ length: limit }, worker));
	return { refused, failed };
}

async function fetchToken(access: ProviderAccess): Promise<string> {
	const response = await request(`${access.url}/token`, {
		method: 'POST',
		reset: true,
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({
			grant_type: 'password',
			client_id: 'ismstoken',
			username: access.username,
			password: access.password,
		}).toString(),
	});
	const answer = (await response.body.json()) as { access_token?: string };
	if (!answer.access_token) throw new Error(`No token: HTTP ${response.statusCode}`);
	return answer.access_token;
}
