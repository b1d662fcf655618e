/**
 * Many Send and Wait questions at once, answered in random order: the appointment example,
 * started by a Webhook per appointment instead of by hand, asks `count` numbers; each number then
 * answers YES or NO through the inbox. Shared by the single-process and queue-mode suites.
 */
import { randomUUID } from 'node:crypto';

import { fetch } from 'undici';

import type { Simulator } from '../../simulator';
import { loadExample } from './examples';
import { type N8nClient, nodeOutput, type WorkflowJson } from './n8n-client';

export interface AskingEnvironment {
	client: N8nClient;
	sim: Simulator;
	importWorkflow(workflow: WorkflowJson): Promise<WorkflowJson & { id: string }>;
}

export interface QuestionsAtOnce {
	/** `[number, approved]` each run resumed with, sorted. */
	resumedWith: Array<[unknown, unknown]>;
	/** `[number, approved]` each number answered, sorted. */
	answered: Array<[string, boolean]>;
	/** Campaign requests the questions cost. */
	texted: number;
	executionIds: string[];
}

/** Runs `task` over `list`, `size` at a time. */
export async function inBatches<T>(
	list: T[],
	size: number,
	task: (item: T) => Promise<void>,
): Promise<void> {
	for (let start = 0; start < list.length; start += size)
		await Promise.all(list.slice(start, start + size).map(task));
}

export async function askAtOnce(
	env: AskingEnvironment,
	options: {
		count: number;
		sender: string;
		questionLog: string;
		/** Where n8n serves production webhooks (the webhook process in queue mode). */
		webhookBase: string;
		/** The inbox's trigger URL. */
		inboxUrl: string;
	},
): Promise<QuestionsAtOnce> {
	const { count, sender, questionLog, webhookBase, inboxUrl } = options;
	const template = loadExample('appointment-confirmation', { sender, questionLog });
	const path = `ask-${randomUUID()}`;
	const nodes = template.nodes.map((node) => {
		if (node.name === 'Start') {
			return {
				...node,
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				webhookId: randomUUID(),
				parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
			};
		}
		if (node.name !== 'Appointment') return node;
		const parameters = JSON.parse(JSON.stringify(node.parameters)) as {
			assignments: { assignments: Array<{ name: string; value: unknown }> };
		};
		parameters.assignments.assignments.find((a) => a.name === 'phone')!.value =
			"={{ $('Start').first().json.body.phone }}";
		return { ...node, parameters };
	});
	const asking = await env.importWorkflow({
		...template,
		name: `Appointment questions (webhook) ${path}`,
		nodes,
	});
	const askUrl = `${webhookBase}/webhook/${path}`;
	await env.client.publishWorkflow(asking.id);
	await env.client.waitForWebhook(askUrl);
	const before = env.sim.campaigns.length;
	const phones = Array.from({ length: count }, (_, i) => `3538710${String(i).padStart(5, '0')}`);
	await inBatches(phones, 20, async (phone) => {
		const response = await fetch(askUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ phone }),
		});
		if (response.status !== 200) throw new Error(`asking ${phone} answered ${response.status}`);
		await response.arrayBuffer();
	});
	const deadline = Date.now() + 180_000;
	const waitingNow = async () =>
		new Set(
			(await env.client.executions(asking.id, count + 50))
				.filter((e) => e.status === 'waiting')
				.map((e) => String(e.id)),
		).size;
	let waiting = 0;
	while ((waiting = await waitingNow()) < count) {
		if (Date.now() > deadline) {
			const listed = await env.client.executions(asking.id, count + 50);
			const others = listed.filter((e) => e.status !== 'waiting').slice(0, 3);
			const why = await Promise.all(
				others.map(async (e) => {
					const run = await env.client.execution(String(e.id));
					return `${e.id} ${e.status}: ${JSON.stringify(run.data?.resultData?.error?.message ?? null)}`;
				}),
			);
			throw new Error(
				`only ${waiting} of ${count} questions are waiting (${listed.length} listed; ${why.join('; ')})`,
			);
		}
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	const texted = env.sim.campaigns.length - before;

	// Each number answers YES or NO, in random order.
	const answers = new Map(phones.map((phone, i) => [phone, i % 3 === 0 ? 'No' : 'Yes']));
	const shuffled = [...phones].sort(() => Math.random() - 0.5);
	await inBatches(shuffled, 10, async (phone) => {
		const relay = await env.sim.sendInbound({
			url: inboxUrl,
			from: phone,
			content: answers.get(phone)!,
		});
		if (relay.status !== 200) throw new Error(`the inbox answered ${relay.status} for ${phone}`);
	});
	const finished = await env.client.waitForExecutions(asking.id, count, 240_000);
	const resumedWith = finished
		.map((execution) => nodeOutput(execution, 'Ask to Confirm')[0] as Record<string, unknown>)
		.map((out): [unknown, unknown] => [out.from, out.approved])
		.sort();
	return {
		resumedWith,
		answered: phones
			.map((phone): [string, boolean] => [phone, answers.get(phone) === 'Yes'])
			.sort(),
		texted,
		executionIds: finished.map((execution) => execution.id),
	};
}
