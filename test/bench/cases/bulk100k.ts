import type { INodeExecutionData } from 'n8n-workflow';

import { withBuiltInsBench } from '../support/benchEngine';
import { HeapWatch, toMB } from '../support/heap';
import type { CaseResult } from '../support/report';
import type { SimulatorProcess } from '../support/simulatorProcess';
import { alternate, median, round, timed } from '../support/stats';
import { runWorkflow } from '../support/workflowRunner';
import { handBuiltCampaign, type Message, perItemSends } from './handBuiltWorkflows';

export interface Bulk100kOptions {
	items?: number;
	perItemItems?: number;
	rounds?: number;
	log?: (line: string) => void;
}

const MESSAGE: Message = { from: 'Phonovation', text: 'Big news' };

/**
 * Opted-out numbers: the first tenth of the contacts (10,000 of 100,000), as an item-independent expression builds
 * them.
 */
const suppressedOf = (items: number) => Math.min(10_000, Math.floor(items / 10));
const suppressionList = (count: number) =>
	`={{ Array.from({ length: ${count} }, (_, i) => '0873' + String(i).padStart(6, '0')) }}`;

/** Contacts as a spreadsheet or CRM hands them over: a national number and a reference each. */
function contacts(count: number): INodeExecutionData[] {
	return Array.from({ length: count }, (_, i) => ({
		json: { phone: `0873${String(i).padStart(6, '0')}`, ref: `c${i}` },
	}));
}

interface Measured {
	ms: number;
	/** CPU time of this process (the simulator runs in its own): steadier than wall time on a busy machine. */
	cpuMs: number;
	heapGrowthBytes: number;
	campaignRequests: number;
	tokenRequests: number;
	senderListRequests: number;
}

async function requestCounts(sim: SimulatorProcess) {
	return {
		campaignRequests: await sim.count('POST', '/api/v2/Campaign'),
		tokenRequests: await sim.count('POST', '/token'),
		senderListRequests: await sim.count('GET', '/api/v2/senderlist'),
	};
}

/** One run on a freshly reset simulator, timed, with its heap watched. */
async function measured(
	sim: SimulatorProcess,
	items: number,
	work: (input: INodeExecutionData[]) => Promise<void>,
): Promise<Measured> {
	await sim.reset();
	let input = contacts(items);
	const watch = new HeapWatch();
	const cpuBefore = process.cpuUsage();
	const { ms } = await timed(async () => await work(input));
	const cpu = process.cpuUsage(cpuBefore);
	const heap = watch.stop();
	input = [];
	return {
		ms,
		cpuMs: (cpu.user + cpu.system) / 1000,
		heapGrowthBytes: heap.growthBytes,
		...(await requestCounts(sim)),
	};
}

/** Both sides must have sent the same campaign, or the comparison means nothing. */
async function sentRecipients(sim: SimulatorProcess): Promise<string> {
	const campaigns = await sim.campaigns();
	if (campaigns.length !== 1)
		throw new Error(`Expected 1 campaign, the simulator recorded ${campaigns.length}`);
	const { from, text, recipientInfo } = campaigns[0].body;
	return JSON.stringify({ from, text, recipientInfo });
}

/**
 * 100,000 input items → one campaign, ours against the hand-built equivalent made of n8n's own
 * nodes, in the same engine against the same simulator, alternating rounds. The per-item
 * pattern runs on fewer items: only its request count per recipient is of interest.
 */
export async function bulk100k(options: Bulk100kOptions = {}): Promise<CaseResult> {
	const items = options.items ?? 100_000;
	const perItemItems = options.perItemItems ?? 2_000;
	const rounds = options.rounds ?? 3;
	const warmUpItems = Math.min(items, 2_000);
	const log = options.log ?? (() => {});
	const suppressed = suppressedOf(items);
	return await withBuiltInsBench(log, undefined, async ({ sim, bench, access }) => {
		const ourNode = bench.phonovationNode({
			resource: 'campaign',
			operation: 'send',
			from: MESSAGE.from,
			text: MESSAGE.text,
			recipients: '={{ $json.phone }}',
			options: { notifyId: '={{ $json.ref }}' },
		});
		const suppressedNode = bench.phonovationNode({
			...ourNode.parameters,
			options: { notifyId: '={{ $json.ref }}', excludeNumbers: suppressionList(suppressed) },
		});
		const handBuilt = handBuiltCampaign(access, MESSAGE);
		const runNode = (node: typeof ourNode) => async (input: INodeExecutionData[]) => {
			bench.forgetToken();
			const run = await bench.engine.runNode(node, input);
			if (run.error) throw new Error(`Our node failed: ${run.error.message}`);
		};
		const runOurs = runNode(ourNode);
		const runSuppressed = runNode(suppressedNode);
		const runHandBuilt = async (input: INodeExecutionData[]) => {
			await runWorkflow(
				bench.engine,
				handBuilt.nodes,
				handBuilt.connections,
				handBuilt.start,
				input,
			);
		};
		// Unmeasured warm-up, so neither side pays for compiling n8n's shared code paths.
		await measured(sim, warmUpItems, runOurs);
		await measured(sim, warmUpItems, runHandBuilt);

		const sent: Record<string, string> = {};
		const results = await alternate<Measured>(rounds, {
			ours: async (r) => {
				const result = await measured(sim, items, runOurs);
				if (r === 0) sent.ours = await sentRecipients(sim);
				log(`ours round ${r + 1}: ${Math.round(result.ms)} ms`);
				return result;
			},
			handBuilt: async (r) => {
				const result = await measured(sim, items, runHandBuilt);
				if (r === 0) sent.handBuilt = await sentRecipients(sim);
				log(`hand-built round ${r + 1}: ${Math.round(result.ms)} ms`);
				return result;
			},
			suppressed: async (r) => {
				const result = await measured(sim, items, runSuppressed);
				if (r === 0) sent.suppressed = await sentRecipients(sim);
				log(`ours with ${suppressed} suppressed, round ${r + 1}: ${Math.round(result.ms)} ms`);
				return result;
			},
		});
		const suppressedCount =
			(JSON.parse(sent.ours).recipientInfo.length as number) -
			JSON.parse(sent.suppressed).recipientInfo.length;
		if (suppressedCount !== suppressed)
			throw new Error(`Suppression left out ${suppressedCount} numbers, expected ${suppressed}`);
		if (sent.ours !== sent.handBuilt)
			throw new Error('Our node and the hand-built workflow did not send the same campaign');

		const perItem = perItemSends(access, MESSAGE);
		const perItemRun = await measured(
			sim,
			perItemItems,
			async (input) =>
				void (await runWorkflow(
					bench.engine,
					perItem.nodes,
					perItem.connections,
					perItem.start,
					input,
				)),
		);
		const perItemRequests = round(
			(perItemRun.campaignRequests + perItemRun.tokenRequests) / perItemItems,
			4,
		);

		const ours = results.ours;
		const oursMs = Math.round(median(ours.map((m) => m.ms)));
		const handBuiltMs = Math.round(median(results.handBuilt.map((m) => m.ms)));
		const ratio = round(
			median(ours.map((m) => m.ms)) / median(results.handBuilt.map((m) => m.ms)),
			2,
		);
		// What a 10,000-number suppression list adds to the same run, measured side by side.
		const suppressionRatio = round(
			median(results.suppressed.map((m) => m.ms)) / median(ours.map((m) => m.ms)),
			2,
		);
		const campaignRequests = Math.max(...ours.map((m) => m.campaignRequests));
		const tokenRequests = Math.max(...ours.map((m) => m.tokenRequests));
		const senderListRequests = Math.max(...ours.map((m) => m.senderListRequests));
		const heapBytes = (list: Measured[]) => median(list.map((m) => m.heapGrowthBytes));
		const heap = (list: Measured[]) => toMB(heapBytes(list));
		// Peak heap growth over the same input, ours / the hand-built workflow's, in the same run.
		const heapRatio = round(heapBytes(ours) / heapBytes(results.handBuilt), 2);
		const cpu = (list: Measured[]) => median(list.map((m) => m.cpuMs));
		return {
			line: {
				name: 'bulk-100k',
				items,
				campaignRequests,
				tokenRequests,
				senderListRequests,
				oursMs,
				handBuiltMs,
				ratio,
				perItemRequests,
				suppressed,
				suppressionRatio,
				heapRatio,
			},
			summary: `${items} items: ours ${oursMs} ms vs hand-built ${handBuiltMs} ms; ours sent ${tokenRequests} token + ${senderListRequests} sender-list + ${campaignRequests} campaign request(s); per-item pattern ${perItemRequests} requests/recipient`,
			target: 'ratio ≤ 0.5, heapRatio ≤ 1.5',
			met: ratio <= 0.5 && heapRatio <= 1.5,
			notes: [
				`CPU time (median): ours ${Math.round(cpu(ours))} ms, hand-built ${Math.round(cpu(results.handBuilt))} ms (ratio ${round(cpu(ours) / cpu(results.handBuilt), 2)})`,
				`peak heap growth (median): ours ${heap(ours)} MB, hand-built ${heap(results.handBuilt)} MB (heapRatio ${heapRatio})`,
				`with ${suppressed} numbers on Exclude Numbers: ${Math.round(median(results.suppressed.map((m) => m.ms)))} ms, ${suppressionRatio}× ours without`,
				`per round: ours ${ours.map((m) => Math.round(m.ms)).join(' / ')} ms, hand-built ${results.handBuilt.map((m) => Math.round(m.ms)).join(' / ')} ms`,
				`hand-built (last round): ${results.handBuilt.at(-1)!.tokenRequests} token + ${results.handBuilt.at(-1)!.senderListRequests} sender-list + ${results.handBuilt.at(-1)!.campaignRequests} campaign request(s)`,
				`per-item pattern (Twilio-style, ${perItemItems} items): ${perItemRun.campaignRequests} send + ${perItemRun.tokenRequests} token requests in ${Math.round(perItemRun.ms)} ms`,
			],
		};
	});
}
