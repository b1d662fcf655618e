/** What the simulator is started with; the same names as the CLI flags. */

export interface Sender {
	name: string;
	/** 0 ComReg-registered, 1 international (not to Irish numbers), 2 numeric. */
	type: 0 | 1 | 2;
}

export interface SimulatorConfig {
	/** 0 = pick a free port; the host is always 127.0.0.1. */
	port: number;
	username: string;
	password: string;
	/** The key of the SMS-Verify MD5 on relays and receipts. */
	relaySecret: string;
	/** The legacy API's numeric account id. */
	apiId: string;
	senders: Sender[];
	/** Access-token lifetime in seconds. */
	tokenTtl: number;
	/** Refresh-token lifetime in seconds. */
	refreshTtl: number;
	/** Where relays, receipts and processing results are POSTed. */
	relayUrl?: string;
	/**
	 * Link replies like the provider: a reply without an explicit notifyId carries the notifyId of
	 * the last message out to its sender. `false` (CLI `--unlinked-replies`): replies carry none.
	 */
	linkReplies: boolean;
	/**
	 * A provider with a limit: at most `max` campaign requests in flight at once; one more is
	 * answered 429 with `Retry-After: retryAfter` (seconds) before anything is processed.
	 */
	campaignLimit?: CampaignLimit;
	/**
	 * Serve HTTPS with this certificate and key (PEM), as the live API does; the client must trust
	 * the certificate (n8n: `NODE_EXTRA_CA_CERTS`). Without it, plain HTTP on loopback.
	 */
	tls?: { cert: string; key: string };
}

export interface CampaignLimit {
	max: number;
	retryAfter: number;
}

/** A campaign limit as given, or an error naming what is wrong. */
export function checkCampaignLimit(limit: unknown): CampaignLimit {
	const { max, retryAfter } = (limit ?? {}) as Partial<CampaignLimit>;
	if (!Number.isInteger(max) || (max as number) < 1)
		throw new Error('campaignLimit.max must be a whole number of requests, at least 1');
	if (!(typeof retryAfter === 'number' && Number.isInteger(retryAfter) && retryAfter >= 0)) {
		throw new Error('campaignLimit.retryAfter must be a whole number of seconds, 0 or more');
	}
	return { max: max as number, retryAfter };
}

/** Parses `20` or `20:1` (requests, then Retry-After seconds; 1 when not given). */
export function parseCampaignLimit(text: string): CampaignLimit {
	const [max, retryAfter = '1'] = text.split(':');
	return checkCampaignLimit({ max: Number(max), retryAfter: Number(retryAfter) });
}

export const DEFAULT_CONFIG: SimulatorConfig = {
	port: 0,
	username: 'demo',
	password: 'demo-password',
	relaySecret: 'demo-relay-secret',
	apiId: '1234',
	senders: [
		{ name: 'Phonovation', type: 0 },
		{ name: 'FreeText', type: 1 },
		{ name: '353851234567', type: 2 },
	],
	tokenTtl: 120,
	refreshTtl: 1200,
	linkReplies: true,
};

/** The CLI's port when none is given, so the demo and `simulator:reply` agree on a URL. */
export const DEFAULT_CLI_PORT = 8787;

export function resolveConfig(overrides: Partial<SimulatorConfig> = {}): SimulatorConfig {
	const defined = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined));
	const config: SimulatorConfig = {
		...DEFAULT_CONFIG,
		...defined,
		senders: (overrides.senders ?? DEFAULT_CONFIG.senders).map((s) => ({ ...s })),
	};
	if (config.campaignLimit !== undefined)
		config.campaignLimit = checkCampaignLimit(config.campaignLimit);
	for (const sender of config.senders) {
		if (![0, 1, 2].includes(sender.type)) {
			throw new Error(`Sender ${sender.name}: type must be 0, 1 or 2`);
		}
	}
	if (!(config.tokenTtl > 0) || !(config.refreshTtl > 0)) {
		throw new Error('tokenTtl and refreshTtl must be positive numbers of seconds');
	}
	return config;
}

/** Parses `"Phonovation:0,FreeText:1"`; the type follows the last colon, so names may hold colons. */
export function parseSenders(list: string): Sender[] {
	return list
		.split(',')
		.map((entry) => entry.trim())
		.filter(Boolean)
		.map((entry) => {
			const colon = entry.lastIndexOf(':');
			const name = colon > 0 ? entry.slice(0, colon).trim() : entry;
			const type = colon > 0 ? Number(entry.slice(colon + 1)) : 0;
			if (!name || ![0, 1, 2].includes(type)) {
				throw new Error(`Invalid sender "${entry}": expected name:type with type 0, 1 or 2`);
			}
			return { name, type: type as Sender['type'] };
		});
}
