import { benchEngine } from '../support/benchEngine';
import type { CaseResult } from '../support/report';
import { startSimulatorProcess } from '../support/simulatorProcess';

export interface TokenReuseOptions {
	campaigns?: number;
	simulatedSeconds?: number;
	recipientsPerCampaign?: number;
}

/**
 * 20 campaigns spread over 10 simulated minutes, one workflow execution each, on one n8n
 * instance whose stored token survives between executions. Tokens live 120 s, so a login
 * per expiry (5 in 600 s, at most 6) is the floor; more means the node logs in needlessly.
 */
export async function tokenReuse(options: TokenReuseOptions = {}): Promise<CaseResult> {
	const campaigns = options.campaigns ?? 20;
	const simulatedSeconds = options.simulatedSeconds ?? 600;
	const recipients = options.recipientsPerCampaign ?? 10;
	const sim = await startSimulatorProcess();
	try {
		const { engine, phonovationNode } = benchEngine(sim);
		const step = simulatedSeconds / campaigns;
		for (let c = 0; c < campaigns; c++) {
			if (c > 0) await sim.advanceClock(step);
			const items = Array.from({ length: recipients }, (_, i) => ({
				json: { phone: `0874${String(c * recipients + i).padStart(6, '0')}` },
			}));
			const node = phonovationNode({
				resource: 'campaign',
				operation: 'send',
				from: 'Phonovation',
				text: `Campaign ${c + 1}`,
				recipients: '={{ $json.phone }}',
				options: {},
			});
			const result = await engine.runNode(node, items);
			if (result.error) throw new Error(`Campaign ${c + 1} failed: ${result.error.message}`);
		}
		const sent = await sim.count('POST', '/api/v2/Campaign');
		if (sent !== campaigns)
			throw new Error(`Expected ${campaigns} campaign requests, the simulator got ${sent}`);
		const tokenRequests = await sim.count('POST', '/token');
		return {
			line: { name: 'token-reuse', campaigns, simulatedSeconds, tokenRequests },
			summary: `${campaigns} campaigns over ${simulatedSeconds} simulated s (token TTL ${sim.config.tokenTtl} s): ${tokenRequests} token requests`,
			target: 'tokenRequests ≤ 6',
			met: tokenRequests <= 6,
		};
	} finally {
		await sim.stop();
	}
}
