import { benchEngine } from '../support/benchEngine';
import { HeapWatch, MB, collectGarbage, toMB } from '../support/heap';
import type { CaseResult } from '../support/report';
import { startSimulatorProcess } from '../support/simulatorProcess';
import { median, round, timed } from '../support/stats';

export interface BigCampaignOptions {
	recipients?: number;
	rounds?: number;
}

/** Distinct Irish mobiles in national form, as a spreadsheet column would hold them. */
function phoneNumbers(count: number): string[] {
	return Array.from({ length: count }, (_, i) => `08${5 + (i % 3)}${String(i).padStart(7, '0')}`);
}

/**
 * One input item listing 400,000 numbers (the provider's per-request maximum) → one campaign
 * request. The heap our node needs on top of its input, against the size of the body it sends:
 * a node that keeps several full copies of every recipient alive shows up here.
 */
export async function bigCampaign(options: BigCampaignOptions = {}): Promise<CaseResult> {
	const recipients = options.recipients ?? 400_000;
	const rounds = options.rounds ?? 2;
	const sim = await startSimulatorProcess();
	try {
		const bench = benchEngine(sim);
		const node = bench.phonovationNode({
			resource: 'campaign',
			operation: 'send',
			from: 'Phonovation',
			text: 'One big campaign',
			recipients: '={{ $json.phones }}',
			options: {},
		});
		const wallMs: number[] = [];
		const growthBytes: number[] = [];
		let bodyBytes = 0;
		for (let round = 0; round < rounds; round++) {
			await sim.reset();
			bench.forgetToken();
			let items = [{ json: { phones: phoneNumbers(recipients) } }];
			const watch = new HeapWatch();
			const run = await timed(async () => await bench.engine.runNode(node, items));
			const heap = watch.stop();
			if (run.value.error) throw new Error(`The campaign failed: ${run.value.error.message}`);
			wallMs.push(run.ms);
			growthBytes.push(heap.growthBytes);
			items = [];
			collectGarbage();

			const [campaign] = await sim.campaigns();
			if (campaign?.body?.recipientInfo?.length !== recipients) {
				throw new Error(
					`Expected one campaign with ${recipients} recipients, the simulator got ${campaign?.body?.recipientInfo?.length ?? 'none'}`,
				);
			}
			bodyBytes = Buffer.byteLength(JSON.stringify(campaign.body));
			const requests = await sim.count('POST', '/api/v2/Campaign');
			if (requests !== 1)
				throw new Error(`Expected 1 campaign request, the simulator got ${requests}`);
		}
		const growth = median(growthBytes);
		const ratio = round(growth / bodyBytes, 2);
		return {
			line: {
				name: 'big-campaign',
				recipients,
				wallMs: Math.round(median(wallMs)),
				bodyMB: toMB(bodyBytes),
				peakHeapGrowthMB: toMB(growth),
				ratio,
			},
			summary: `${recipients} recipients in 1 request: ${Math.round(median(wallMs))} ms, body ${toMB(bodyBytes)} MB, peak heap +${toMB(growth)} MB (${ratio}× the body)`,
			target: 'ratio ≤ 4',
			met: ratio <= 4,
			notes: [
				`per round: ${wallMs.map((ms) => Math.round(ms)).join(' / ')} ms, +${growthBytes.map((b) => round(b / MB)).join(' / ')} MB`,
			],
		};
	} finally {
		await sim.stop();
	}
}
