/**
 * Many runs waiting at once, each resumed through the inbox in random order: an example started by
 * a Webhook per appointment instead of by hand (`appointment-confirmation` asks, answered YES or
 * NO; `delivery-fallback` texts a reminder, answered by its delivery receipt). Shared by the
 * single-process and queue-mode suites.
 */
import { randomUUID } from 'node:crypto';

import { fetch } from 'undici';

import type { Simulator } from '../../simulator';
import { loadExample } from './examples';
import { withSmtpCredential } from './smtp-sink';
import { type Execution, type N8nClient, nodeOutput, type WorkflowJson } from './n8n-client';
import { asWebhook } from './workflow-builder';

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

interface AtOnceOptions {
	count: number;
	sender: string;
	questionLog: string;
	/** Where n8n serves production webhooks (the webhook process in queue mode). */
	webhookBase: string;
	/** The inbox's trigger URL. */
	inboxUrl: string;
	/** An SMTP credential for the example's Send Email node, if it has one. */
	smtp?: { id: string; name: string };
}

/** One waiting run per phone, each resumed by `resume` (in random order), then all finished. */
async function waitingAtOnce(
	env: AskingEnvironment,
	example: string,
	options: AtOnceOptions,
	resume: (phone: string, notifyId: string) => Promise<void>,
): Promise<{ finished: Execution[]; phones: string[]; texted: number; executionIds: string[] }> {
	const { count, sender, questionLog, webhookBase } = options;
	const loaded = loadExample(example, { sender, questionLog });
	const template = options.smtp ? withSmtpCredential(loaded, options.smtp) : loaded;
	const path = `wait-${randomUUID()}`;
	const nodes = template.nodes.map((node) => {
		if (node.name === 'Start') {
			return asWebhook(node, path);
		}
		if (node.name !== 'Appointment') return node;
		const parameters = JSON.parse(JSON.stringify(node.parameters)) as {
			assignments: { assignments: Array<{ name: string; value: unknown }> };
		};
		parameters.assignments.assignments.find((a) => a.name === 'phone')!.value =
			"={{ $('Start').first().json.body.phone }}";
		return { ...node, parameters };
	});
	const workflow = await env.importWorkflow({
		...template,
		name: `${template.name} (webhook) ${path}`,
		nodes,
	});
	const startUrl = `${webhookBase}/webhook/${path}`;
	await env.client.publishWorkflow(workflow.id);
	await env.client.waitForWebhook(startUrl);
	const before = env.sim.campaigns.length;
	const phones = Array.from({ length: count }, (_, i) => `3538710${String(i).padStart(5, '0')}`);
	await inBatches(phones, 20, async (phone) => {
		const response = await fetch(startUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ phone }),
		});
		if (response.status !== 200) throw new Error(`starting ${phone} answered ${response.status}`);
		await response.arrayBuffer();
	});
	// Each run's execution, from the Notify ID it was texted with (`<execution>.<run>.<MAC>`):
	// n8n's execution list pages by start time, and may skip one of many started in the same instant.
	const deadline = Date.now() + 180_000;
	const texts = async () => {
		for (;;) {
			const texted = env.sim.campaigns.slice(before);
			if (texted.length >= count)
				return texted.map((c) => c.body.recipientInfo[0] as { msisdn: string; notifyId: string });
			if (Date.now() > deadline) throw new Error(`only ${texted.length} of ${count} were texted`);
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
	};
	const sent = await texts();
	const ids = sent.map((text) => String(text.notifyId).split('.')[0]);
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
					`${pending.length} of ${count} runs are not ${what}: ${pending.slice(0, 3)}`,
				);
			if (pending.length) await new Promise((resolve) => setTimeout(resolve, 500));
		}
	};
	await untilAll((status) => status === 'waiting', 'waiting', 120_000);

	const shuffled = [...sent].sort(() => Math.random() - 0.5);
	await inBatches(shuffled, 10, async (text) => await resume(text.msisdn, text.notifyId));
	await untilAll((status) => FINISHED.has(status), 'finished', 240_000);
	const finished = await Promise.all(ids.map(async (id) => await env.client.execution(id)));
	// Counted at the end: a text sent twice would show here.
	return { finished, phones, texted: env.sim.campaigns.length - before, executionIds: ids };
}

/** `count` questions asked at once; each number answers YES or NO. */
export async function askAtOnce(
	env: AskingEnvironment,
	options: AtOnceOptions,
): Promise<QuestionsAtOnce> {
	const answers = new Map<string, string>();
	const run = await waitingAtOnce(env, 'appointment-confirmation', options, async (phone) => {
		const answer = Number(phone.slice(-5)) % 3 === 0 ? 'No' : 'Yes';
		answers.set(phone, answer);
		const relay = await env.sim.sendInbound({
			url: options.inboxUrl,
			from: phone,
			content: answer,
		});
		if (relay.status !== 200) throw new Error(`the inbox answered ${relay.status} for ${phone}`);
	});
	const resumedWith = run.finished
		.map((execution) => nodeOutput(execution, 'Ask to Confirm')[0] as Record<string, unknown>)
		.map((out): [unknown, unknown] => [out.from, out.approved])
		.sort();
	return {
		resumedWith,
		answered: run.phones
			.map((phone): [string, boolean] => [phone, answers.get(phone) === 'Yes'])
			.sort(),
		texted: run.texted,
		executionIds: run.executionIds,
	};
}

export interface RemindersAtOnce {
	/** `[number, branch]` each run went on with (`delivered` or `failed`: the output that ran), sorted. */
	resumedOn: Array<[unknown, string]>;
	/** `[number, outcome]` each text's receipt said, sorted. */
	receipts: Array<[string, string]>;
	texted: number;
	executionIds: string[];
}

/** `count` reminders sent at once; each text's receipt (failed for every third) comes back through the inbox. */
export async function remindAtOnce(
	env: AskingEnvironment,
	options: AtOnceOptions,
): Promise<RemindersAtOnce> {
	const outcomes = new Map<string, string>();
	const run = await waitingAtOnce(env, 'delivery-fallback', options, async (phone, notifyId) => {
		const delivered = Number(phone.slice(-5)) % 3 !== 0;
		outcomes.set(phone, delivered ? 'delivered' : 'failed');
		const relay = await env.sim.sendReceipt({
			url: options.inboxUrl,
			notifyId,
			to: phone,
			success: delivered,
		});
		if (relay.status !== 200) throw new Error(`the inbox answered ${relay.status} for ${phone}`);
	});
	const OUTPUTS = ['noReceipt', 'delivered', 'failed'];
	const resumedOn = run.finished
		.map((execution): [unknown, string] => {
			const ran = OUTPUTS.map((_, output) => nodeOutput(execution, 'Text Reminder', output));
			const output = ran.findIndex((items) => items.length > 0);
			const branches = ran.filter((items) => items.length > 0).length;
			return [ran[output]?.[0]?.to, branches === 1 ? OUTPUTS[output] : `${branches} outputs`];
		})
		.sort();
	return {
		resumedOn,
		receipts: [...outcomes.entries()].sort(),
		texted: run.texted,
		executionIds: run.executionIds,
	};
}
