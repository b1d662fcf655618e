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

const FINISHED = new Set(['success', 'error', 'crashed', 'canceled']);

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
	// Each question's execution, from the Notify ID it was texted with (`<execution>.<run>.<MAC>`):
	// n8n's execution list pages by start time, and may skip one of many started in the same instant.
	const deadline = Date.now() + 180_000;
	const executionIds = async (): Promise<string[]> => {
		for (;;) {
			const texted = env.sim.campaigns.slice(before);
			if (texted.length >= count)
				return texted.map((c) => String(c.body.recipientInfo[0].notifyId).split('.')[0]);
			if (Date.now() > deadline)
				throw new Error(`only ${texted.length} of ${count} questions were texted`);
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
	};
	const ids = await executionIds();
	/** Polls each execution until `done` says so of its status. */
	const untilAll = async (done: (status: string) => boolean, what: string, timeoutMs: number) => {
		let pending = [...ids];
		const until = Date.now() + timeoutMs;
		while (pending.length) {
			const statuses = await Promise.all(
				pending.map(async (id) => (await env.client.execution(id)).status),
			);
			pending = pending.filter((_, i) => !done(statuses[i]));
			if (pending.length && Date.now() > until)
				throw new Error(
					`${pending.length} of ${count} questions are not ${what}: ${pending.slice(0, 3)}`,
				);
			if (pending.length) await new Promise((resolve) => setTimeout(resolve, 500));
		}
	};
	await untilAll((status) => status === 'waiting', 'waiting', 120_000);

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
	await untilAll((status) => FINISHED.has(status), 'finished', 240_000);
	const finished = await Promise.all(ids.map(async (id) => await env.client.execution(id)));
	const resumedWith = finished
		.map((execution) => nodeOutput(execution, 'Ask to Confirm')[0] as Record<string, unknown>)
		.map((out): [unknown, unknown] => [out.from, out.approved])
		.sort();
	// Counted at the end: a question texted twice would show here.
	const texted = env.sim.campaigns.length - before;
	return {
		resumedWith,
		answered: phones
			.map((phone): [string, boolean] => [phone, answers.get(phone) === 'Yes'])
			.sort(),
		texted,
		executionIds: ids,
	};
}
