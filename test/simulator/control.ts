import { parseJson, type Exchange, json, type Reply, SimulatorError } from './http';
import { checkCampaignLimit } from './config';
import type { Fault } from './faults';
import type { PhonovationSimulator } from './simulator';

/**
 * Test-only routes under /_sim/, for the demo and for tests that run the simulator in another
 * process. They need no authentication and are not counted in `requests`.
 */
type ControlHandler = (
	sim: PhonovationSimulator,
	input: Record<string, unknown>,
	exchange: Exchange,
) => unknown;

const ROUTES: Record<string, ControlHandler> = {
	'GET /_sim/campaigns': (sim) => sim.campaigns,
	'GET /_sim/legacy-sends': (sim) => sim.legacySends,
	'GET /_sim/requests': (sim) => sim.requests,
	'GET /_sim/connections': (sim) => sim.connections,
	'GET /_sim/count': (sim, _input, exchange) => ({
		count: sim.count(exchange.query.get('method') ?? 'GET', exchange.query.get('path') ?? '/'),
	}),
	'GET /_sim/config': (sim) => publicConfig(sim),
	'POST /_sim/config': (sim, input) => {
		if (!('relayUrl' in input) && !('linkReplies' in input) && !('campaignLimit' in input)) {
			throw new SimulatorError(
				400,
				'Send {"relayUrl": "http://…"} (or null to clear), {"linkReplies": false} and/or {"campaignLimit": {"max": 20, "retryAfter": 1}} (or null)',
			);
		}
		const limit =
			input.campaignLimit === null || input.campaignLimit === undefined
				? undefined
				: checkCampaignLimit(input.campaignLimit);
		const { relayUrl, linkReplies } = input;
		if (
			'relayUrl' in input &&
			relayUrl !== null &&
			(typeof relayUrl !== 'string' || !/^https?:\/\//.test(relayUrl))
		) {
			throw new SimulatorError(400, 'relayUrl must be an http(s) URL or null');
		}
		if ('linkReplies' in input && typeof linkReplies !== 'boolean') {
			throw new SimulatorError(400, 'linkReplies must be true or false');
		}
		if ('relayUrl' in input) sim.config.relayUrl = (relayUrl as string | null) ?? undefined;
		if (typeof linkReplies === 'boolean') sim.config.linkReplies = linkReplies;
		if ('campaignLimit' in input) sim.config.campaignLimit = limit;
		return publicConfig(sim);
	},
	'POST /_sim/reset': (sim) => {
		sim.reset();
		return { reset: true };
	},
	'GET /_sim/faults': (sim) => sim.pendingFaults(),
	'POST /_sim/faults': (sim, input) => {
		sim.injectFault(
			String(input.path ?? ''),
			input.fault as Fault,
			input.times === undefined ? 1 : Number(input.times),
		);
		return sim.pendingFaults();
	},
	'GET /_sim/clock': (sim) => sim.clockState(),
	'POST /_sim/clock/advance': (sim, input) => {
		sim.clock.advance(Number(input.seconds));
		return sim.clockState();
	},
	'POST /_sim/clock/freeze': (sim) => {
		sim.clock.freeze();
		return sim.clockState();
	},
	'POST /_sim/clock/unfreeze': (sim) => {
		sim.clock.unfreeze();
		return sim.clockState();
	},
	'POST /_sim/relay/inbound': (sim, input) => {
		if (input.linked !== undefined && typeof input.linked !== 'boolean') {
			throw new SimulatorError(400, 'linked must be true or false');
		}
		return sim.sendInbound(input);
	},
	'POST /_sim/relay/optout': (sim, input) => sim.sendOptOut(input),
	'POST /_sim/relay/receipt': (sim, input) =>
		sim.sendReceipt(
			typeof input.success === 'string'
				? { ...input, success: input.success.toLowerCase() === 'true' }
				: input,
		),
	'POST /_sim/relay/processing-result': (sim, input) => sim.sendProcessingResult(input),
	'POST /_sim/deliver': (sim, input) =>
		sim.deliverScheduled(input.campaignId === undefined ? undefined : Number(input.campaignId)),
};

/** The configuration without the password and relay secret. */
function publicConfig(sim: PhonovationSimulator) {
	const { username, apiId, senders, tokenTtl, refreshTtl, relayUrl, linkReplies, campaignLimit } =
		sim.config;
	return {
		url: sim.url,
		username,
		apiId,
		senders,
		tokenTtl,
		refreshTtl,
		relayUrl: relayUrl ?? null,
		linkReplies,
		campaignLimit: campaignLimit ?? null,
	};
}

export async function handleControl(exchange: Exchange, sim: PhonovationSimulator): Promise<Reply> {
	const handler = ROUTES[`${exchange.method} ${exchange.route}`];
	if (!handler) {
		const known = Object.keys(ROUTES).join(', ');
		return json(404, {
			error: `No control route ${exchange.method} ${exchange.path}. Known: ${known}`,
		});
	}
	let input: unknown = {};
	if (exchange.method === 'POST') {
		try {
			input = parseJson(exchange.body);
		} catch {
			return json(400, { error: 'The body must be JSON' });
		}
		if (!input || typeof input !== 'object' || Array.isArray(input)) {
			return json(400, { error: 'The body must be a JSON object' });
		}
	}
	try {
		return json(200, await handler(sim, input as Record<string, unknown>, exchange));
	} catch (error) {
		if (error instanceof SimulatorError) throw error;
		throw new SimulatorError(400, (error as Error).message);
	}
}
