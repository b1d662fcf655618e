import { randomUUID } from 'node:crypto';

import { DateTime } from 'luxon';
import { fetch } from 'undici';

import { DEFAULT_CONFIG } from '../simulator';
import { OPT_OUT_SHORTCODE } from '../simulator/relays';
import { useE2eEnvironment } from './support/environment';
import {
	createExampleDataTables,
	exampleNames,
	loadExample,
	publishQuestionLog,
	readExample,
} from './support/examples';
import { pollUntil } from './support/poll';
import { waitingAt } from './support/question-log';
import {
	type SmtpSink,
	smtpCredentialData,
	startSmtpSink,
	withSmtpCredential,
} from './support/smtp-sink';
import { nodeError, nodeOutput, type WorkflowJson } from './support/n8n-client';

const EXAMPLES = exampleNames();

const LONGCODE = '353870000123';
/** The inbox's runs a relay started, not the Question Log calls it makes to itself. */
const RELAYS = { mode: 'webhook' };

/** The inbox with its Settings toggle flipped, on a webhook of its own. */
function withSetting(workflow: WorkflowJson, sendStopConfirmation: boolean): WorkflowJson {
	const nodes = workflow.nodes.map((node) => {
		if (node.name !== 'Settings') return node;
		const parameters = JSON.parse(JSON.stringify(node.parameters)) as {
			assignments: { assignments: Array<{ name: string; value: unknown }> };
		};
		const toggle = parameters.assignments.assignments.find(
			(a) => a.name === 'sendStopConfirmation',
		)!;
		toggle.value = sendStopConfirmation;
		return { ...node, parameters };
	});
	return { ...workflow, name: `${workflow.name} (confirming)`, nodes };
}

/** The importable example workflows (also used by `npm start`), run as a user would run them. */
/** The credential's URL token, which vouches for processing results to the inbox. */
const URL_TOKEN = 'inbox-url-token-5521';

describe('example workflows in n8n', () => {
	// The appointment confirmation asks from a numeric longcode, which replies can come back to.
	const suite = useE2eEnvironment({
		simulator: { senders: [...DEFAULT_CONFIG.senders, { name: LONGCODE, type: 0 }] },
	});
	let optOutTableId: string;
	/** The inbox, imported and published as a user sets it up once: it is also the Question Log. */
	let questionLog: string;

	beforeAll(async () => {
		const { client, importWorkflow } = suite.env();
		optOutTableId = (await createExampleDataTables(client)).optOuts;
		questionLog = await publishQuestionLog({ importWorkflow, client });
	}, 60_000);

	it('there are the seven examples the README describes', () => {
		expect(EXAMPLES.sort()).toEqual([
			'ai-human-review',
			'appointment-confirmation',
			'campaign-excluding-opt-outs',
			'delivery-fallback',
			'inbox',
			'scheduled-campaign-from-list',
			'sms-assistant',
		]);
	});

	suite.it(
		'each example file, as a user gets it, imports cleanly and uses only node types n8n knows',
		async ({ client, importWorkflow }) => {
			const known = new Set(await client.nodeTypeNames());
			for (const name of EXAMPLES) {
				const workflow = readExample(name);
				const unknown = workflow.nodes.map((n) => n.type).filter((type) => !known.has(type));
				expect({ name, unknown }).toEqual({ name, unknown: [] });
				const stored = await client.getWorkflow((await importWorkflow(workflow)).id);
				expect(stored.nodes.map((n) => n.name).sort()).toEqual(
					workflow.nodes.map((n) => n.name).sort(),
				);
				expect(stored.connections).toEqual(workflow.connections);
			}
		},
	);

	suite.it(
		'an example run as imported, placeholders left in, fails at once naming them all and sends nothing',
		async ({ sim, client, importWorkflow }) => {
			sim.reset();
			const asIs = await importWorkflow(readExample('appointment-confirmation'));
			const run = await client.runAndWait(asIs.id, 'Start');
			expect(run.status).toBe('error');
			expect(nodeError(run, 'Ask to Confirm')?.message).toBe(
				"This node still holds the example's placeholders: Question Log (YOUR_QUESTION_LOG), Sender Name or ID (YOUR_SENDER_ID). Choose your own in the node (the Sender from its list, the inbox workflow as Question Log) and run again; nothing was sent",
			);
			expect(sim.requests).toEqual([]);
		},
	);

	describe('appointment confirmation (ask and wait; the inbox delivers replies)', () => {
		let askingId: string;
		let url: string;

		beforeAll(async () => {
			const env = suite.env();
			url = await env.publish(
				// As shipped: keyword replies off (a re-prompt still goes out).
				await env.importWorkflow(loadExample('inbox', { questionLog, keywordReplies: false })),
				'On Reply or Opt-Out',
			);
			askingId = (
				await env.importWorkflow(
					loadExample('appointment-confirmation', { sender: LONGCODE, questionLog }),
				)
			).id;
		}, 60_000);

		/** Runs the asking workflow as a user would, and waits until its question is waiting. */
		async function askedRun(client: ReturnType<typeof suite.env>['client']): Promise<string> {
			const executionId = await client.runManually(askingId, 'Start');
			for (let tries = 0; (await client.execution(executionId)).status !== 'waiting'; tries++) {
				if (tries > 240) throw new Error('the question never started waiting');
				await new Promise((resolve) => setTimeout(resolve, 250));
			}
			return executionId;
		}

		for (const { reply, linked, approved, branch } of [
			{ reply: 'YES', linked: true, approved: true, branch: 0 },
			{ reply: 'No thanks.', linked: true, approved: false, branch: 1 },
			{ reply: 'What time was it again?', linked: true, approved: null, branch: -1 },
			{ reply: 'Yes please', linked: false, approved: true, branch: 0 },
			{ reply: 'STOP', linked: true, approved: false, branch: 2 },
		]) {
			const how = linked ? 'linked to the question' : 'not linked (found by number)';
			suite.it(
				`"${reply}", ${how}, ${approved === null ? 'is no answer: the question keeps waiting' : `resumes it with approved: ${approved}`}`,
				async (env) => {
					env.sim.reset();
					const executionId = await askedRun(env.client);
					expect(env.sim.campaigns.map((c) => c.body.recipientInfo[0].msisdn)).toEqual([
						'353871234567',
					]);
					const relay = await env.sim.sendInbound({
						url,
						from: '353871234567',
						content: reply,
						linked,
					});
					expect(relay.notifyId).toEqual(
						linked ? expect.stringMatching(new RegExp(`^${executionId}\\.0\\.`)) : null,
					);
					if (approved === null) {
						// The inbox's run answers the relay before it texts back: wait for its text.
						await pollUntil(
							() => (env.sim.campaigns.length >= 2 ? true : undefined),
							'the re-prompt',
							30_000,
						);
						expect((await env.client.execution(executionId)).status).toBe('waiting');
						// The inbox texts the question's Re-Prompt Text back, linked to the question.
						expect(env.sim.campaigns.map((c) => c.body)).toEqual([
							expect.anything(),
							expect.objectContaining({
								from: LONGCODE,
								text: expect.stringMatching(/^Sorry, we did not get that/),
								recipientInfo: [{ msisdn: '353871234567', notifyId: relay.notifyId }],
							}),
						]);
						// The answer after it still resumes it.
						await env.sim.sendInbound({ url, from: '353871234567', content: 'yes', linked });
					}
					const answered = await env.client.waitForExecution(executionId, 60_000);
					expect(answered.status).toBe('success');
					expect(nodeOutput(answered, 'Ask to Confirm')).toEqual([
						expect.objectContaining({ approved: approved ?? true, from: '353871234567' }),
					]);
					expect(nodeOutput(answered, 'Answer', branch < 0 ? 0 : branch)).toHaveLength(1);
					if (reply === 'YES') {
						// The log marks the question with the relay that answered it, not its text. The
						// inbox marks it after the run resumed, so the mark may land a moment later.
						const tables = await env.client.dataTables();
						const questions = tables.find((table) => table.name === 'questions')!;
						const settledBy = await pollUntil(
							async () => {
								const rows = await env.client.dataTableRows(questions.id);
								const row = rows.find((r) => String(r.reference).startsWith(`${executionId}.`));
								return row?.settledBy ? String(row.settledBy) : undefined;
							},
							'the question marked settled',
							30_000,
						);
						// The relay's mark, and its signed text's with when it answered.
						expect(settledBy).toMatch(/^[0-9a-f]{40} t:[0-9a-f]{40}@[0-9a-z]+$/);
					}
					if (reply === 'STOP') {
						// The inbox stored the opt-out: the next question to the number is never texted.
						const again = await env.client.runAndWait(askingId, 'Start');
						expect(again.status).toBe('error');
						expect(env.sim.campaigns).toHaveLength(1);
					}
				},
				120_000,
			);
		}
	});

	describe('inbox: opt-outs and keyword routing when no question waits', () => {
		let workflowId: string;
		let url: string;

		beforeAll(async () => {
			const env = suite.env();
			// A copy on a webhook of its own: the appointment tests' inbox keeps the example's.
			const inbox = loadExample('inbox', {
				questionLog,
				webhookId: '5a1f0c3e-7b2d-4e6f-8a9b-0c1d2e3f4a5b',
			});
			const workflow = await env.importWorkflow({ ...inbox, name: `${inbox.name} (keywords)` });
			url = await env.publish(workflow, 'On Reply or Opt-Out');
			workflowId = workflow.id;
		}, 60_000);

		const cases = [
			{ reply: 'YES please', branch: 'Confirm Appointment', text: /confirmed/ },
			{ reply: 'no thanks', branch: 'Cancel Appointment', text: /cancelled/ },
			{ reply: 'What time is it?', branch: 'Explain Keywords', text: /Reply YES to confirm/ },
		];
		for (const [index, { reply, branch, text }] of cases.entries()) {
			suite.it(`"${reply}" is answered by the ${branch} branch`, async ({ client, sim }) => {
				sim.reset();
				const from = `35387000000${index}`;
				expect((await sim.sendInbound({ url, from, content: reply, keyphrase: '*' })).status).toBe(
					200,
				);

				const executions = await client.waitForExecutions(workflowId, index + 1, 60_000, RELAYS);
				const execution = executions.at(-1)!;
				expect(execution.status).toBe('success');
				expect(nodeOutput(execution, branch)).toHaveLength(1);
				expect(sim.campaigns).toHaveLength(1);
				expect(sim.campaigns[0].body.text).toMatch(text);
				expect(sim.campaigns[0].body.recipientInfo).toEqual([{ msisdn: from }]);
			});
		}

		suite.it(
			'an opt-out lands in the opt-outs Data Table and sends nothing',
			async ({ client, sim }) => {
				sim.reset();
				expect((await sim.sendOptOut({ url, from: '353861234567' })).status).toBe(200);

				const executions = await client.waitForExecutions(
					workflowId,
					cases.length + 1,
					60_000,
					RELAYS,
				);
				expect(executions.at(-1)!.status).toBe('success');
				const rows = await client.dataTableRows(optOutTableId);
				expect(rows.map((r) => r.phone)).toContain('353861234567');
				expect(sim.campaigns).toHaveLength(0);
			},
		);

		suite.it(
			'a STOP reply to the longcode lands in the opt-outs Data Table and, by default, sends nothing',
			async ({ client, sim }) => {
				sim.reset();
				const from = '353871234570';
				expect(
					(await sim.sendInbound({ url, from, content: 'Stop.', keyphrase: '*' })).status,
				).toBe(200);

				const executions = await client.waitForExecutions(
					workflowId,
					cases.length + 2,
					60_000,
					RELAYS,
				);
				const execution = executions.at(-1)!;
				expect(execution.status).toBe('success');
				expect(nodeOutput(execution, 'On Reply or Opt-Out')).toEqual([
					expect.objectContaining({
						event: 'optOut',
						from,
						text: 'Stop.',
						optOutKeyword: 'STOP',
						unverified: expect.objectContaining({ via: 'reply' }),
					}),
				]);
				expect(nodeOutput(execution, 'Explain Keywords')).toEqual([]);
				const rows = await client.dataTableRows(optOutTableId);
				expect(rows.map((r) => r.phone)).toEqual(expect.arrayContaining(['353861234567', from]));
				expect(nodeOutput(execution, 'Confirm Opt-Out')).toEqual([]);
				expect(sim.campaigns).toHaveLength(0);
			},
		);

		suite.it(
			'a STOP posted again with its From/Content boundary moved texts nobody: the number it names is a stranger',
			async ({ client, sim }) => {
				sim.reset();
				const before = (await client.executions(workflowId, 100, RELAYS)).length;
				// The same signed string, From one digit shorter: a valid number of someone else.
				// Another time stamp for the copy: the same one would stop it at Drop Exact Replays.
				const stamp = (secondsAgo: number) =>
					new Date(Date.now() - secondsAgo * 1000).toISOString().slice(0, 19).replace('T', ' ');
				const original = { from: '3538712345749', content: 'STOP', timestamp: stamp(30) };
				const moved = { from: '353871234574', content: '9STOP', timestamp: stamp(0) };
				// The copy comes after the original was handled, as a captured relay does.
				let runs: Awaited<ReturnType<typeof client.waitForExecutions>> = [];
				for (const [n, relay] of [original, moved].entries()) {
					expect((await sim.sendInbound({ url, ...relay, keyphrase: '*' })).status).toBe(200);
					runs = await client.waitForExecutions(workflowId, before + n + 1, 60_000, RELAYS);
				}
				runs = runs.slice(before);
				expect(runs.every((run) => run.status === 'success')).toBe(true);
				const copy = runs.find(
					(run) => nodeOutput(run, 'On Reply or Opt-Out')[0]?.from === moved.from,
				)!;
				expect(nodeOutput(copy, 'Deliver to Waiting Question')).toEqual([
					expect.objectContaining({ replay: true }),
				]);
				expect(nodeOutput(copy, 'Explain Keywords')).toEqual([]);
				expect(sim.campaigns).toHaveLength(0);
			},
		);

		suite.it(
			'with sendStopConfirmation on, a STOP reply gets one transactional confirmation; a moved copy that is an opt-out of another number gets none',
			async ({ client, importWorkflow, publish, sim }) => {
				const confirming = withSetting(
					loadExample('inbox', { questionLog, webhookId: '3f0c5a52-6a1e-4c55-9d0e-7d1f4b0e2a12' }),
					true,
				);
				const workflow = await importWorkflow(confirming);
				const confirmingUrl = await publish(workflow, 'On Reply or Opt-Out');
				sim.reset();
				const from = '353871234571';
				expect(
					(
						await sim.sendInbound({
							url: confirmingUrl,
							from,
							content: 'UNSUBSCRIBE',
							keyphrase: '*',
						})
					).status,
				).toBe(200);

				const [execution] = await client.waitForExecutions(workflow.id, 1, 60_000, RELAYS);
				expect(execution.status).toBe('success');
				expect((await client.dataTableRows(optOutTableId)).map((r) => r.phone)).toContain(from);
				expect(sim.campaigns).toHaveLength(1);
				expect(sim.campaigns[0].body.recipientInfo).toEqual([{ msisdn: from }]);
				expect(sim.campaigns[0].body.text).toBe(
					'You have been unsubscribed and will get no more marketing texts from us. No reply is needed.',
				);
				// A text that reads as no opt-out ("2 STOP"), posted again with the digit moved into
				// From and sent to the opt-out shortcode: an opt-out from a stranger, and no confirmation.
				sim.reset();
				const person = '353871234580';
				const before = (await client.executions(workflow.id, 100, RELAYS)).length;
				const stamp = (secondsAgo: number) =>
					new Date(Date.now() - secondsAgo * 1000).toISOString().slice(0, 19).replace('T', ' ');
				const relays = [
					{ from: person, content: '2 STOP', keyphrase: '*', timestamp: stamp(30) },
					{ from: `${person}2`, content: ' STOP', to: OPT_OUT_SHORTCODE, timestamp: stamp(0) },
				];
				let runs: Awaited<ReturnType<typeof client.waitForExecutions>> = [];
				for (const [n, relay] of relays.entries()) {
					expect((await sim.sendInbound({ url: confirmingUrl, ...relay })).status).toBe(200);
					runs = await client.waitForExecutions(workflow.id, before + n + 1, 60_000, RELAYS);
				}
				const copy = runs.at(-1)!;
				expect(nodeOutput(copy, 'On Reply or Opt-Out')).toEqual([
					expect.objectContaining({ event: 'optOut', from: `${person}2` }),
				]);
				expect(nodeOutput(copy, 'Deliver to Waiting Question')).toEqual([
					expect.objectContaining({ replay: true }),
				]);
				expect(nodeOutput(copy, 'Confirm Opt-Out')).toEqual([]);
				expect(sim.campaigns.map((c) => c.body.recipientInfo)).toEqual([[{ msisdn: person }]]);
				await client.unpublishWorkflow(workflow.id);
			},
		);

		suite.it(
			'one signed relay posted five times (to the letter, then with fresh time stamps) pays for one text; the number gets no second auto-reply that hour',
			async ({ client, sim }) => {
				sim.reset();
				const from = '353870000077';
				const before = (await client.executions(workflowId, 100, RELAYS)).length;
				// The provider's form of a time stamp, `yyyy-MM-dd HH:mm:ss` (UTC), some seconds ago.
				const stampAt = (secondsAgo: number) =>
					new Date(Date.now() - secondsAgo * 1000).toISOString().slice(0, 19).replace('T', ' ');
				const stamp = stampAt(120);
				// The same relay to the letter, three times; then replayed with fresh time stamps.
				for (const timestamp of [stamp, stamp, stamp, stampAt(60), stampAt(1)]) {
					const relay = await sim.sendInbound({
						url,
						from,
						content: 'hello?',
						keyphrase: '*',
						timestamp,
					});
					expect(relay.status).toBe(200);
				}
				// A different text from the same number within the hour: no second paid reply either.
				expect(
					(await sim.sendInbound({ url, from, content: 'anyone?', keyphrase: '*' })).status,
				).toBe(200);
				const runs = (await client.waitForExecutions(workflowId, before + 6, 60_000, RELAYS)).slice(
					before,
				);
				expect(runs.every((run) => run.status === 'success')).toBe(true);
				// The exact replays stopped at the first node; the others at the guards.
				expect(
					runs.filter((run) => nodeOutput(run, 'Drop Exact Replays').length === 1),
				).toHaveLength(4);
				expect(runs.filter((run) => nodeOutput(run, 'Once per Text').length === 1)).toHaveLength(2);
				expect(runs.filter((run) => nodeOutput(run, 'Explain Keywords').length === 1)).toHaveLength(
					1,
				);
				expect(sim.campaigns).toHaveLength(1);
				expect(sim.campaigns[0].body.recipientInfo).toEqual([{ msisdn: from }]);
			},
		);
	});

	suite.it(
		'the campaign example skips numbers in the opt-outs Data Table',
		async ({ client, importWorkflow, sim }) => {
			// The opt-out test above stored this number through the inbox.
			const rows = await client.dataTableRows(optOutTableId);
			expect(rows.map((r) => r.phone)).toContain('353861234567');
			const workflow = await importWorkflow(loadExample('campaign-excluding-opt-outs'));
			sim.reset();

			const execution = await client.runAndWait(workflow.id, 'Run Campaign');

			expect(execution.status).toBe('success');
			expect(sim.campaigns).toHaveLength(1);
			const sentTo = (sim.campaigns[0].body.recipientInfo as Array<{ msisdn: string }>).map(
				(r) => r.msisdn,
			);
			expect(sentTo).toEqual(['353871234501', '353871234502', '447911123456']);
			const ciara = nodeOutput(execution, 'Send Offer').find((item) =>
				(item.recipients as Array<{ input: unknown; status: string }>).some(
					(r) => r.status === 'excluded',
				),
			);
			expect(ciara).toBeDefined();
		},
	);

	suite.it(
		'the scheduled campaign from a list sends one campaign for tomorrow 10:00 Irish time, skipping the bad row',
		async ({ client, importWorkflow, sim }) => {
			const workflow = await importWorkflow(loadExample('scheduled-campaign-from-list'));
			sim.reset();

			const execution = await client.runAndWait(workflow.id, 'Run Now');

			expect(execution.status).toBe('success');
			expect(sim.campaigns).toHaveLength(1);
			const tomorrowTen = DateTime.now()
				.setZone('Europe/Dublin')
				.startOf('day')
				.plus({ days: 1 })
				.set({ hour: 10 })
				.toUTC()
				.toFormat("yyyy-MM-dd'T'HH:mm'Z'");
			expect(sim.campaigns[0].body).toMatchObject({
				campaignName: 'Check-up reminders',
				sendAt: tomorrowTen,
				recipientInfo: [
					{ msisdn: '353871234501', notifyId: 'A-1001' },
					{ msisdn: '353871234502', notifyId: 'A-1002' },
					{ msisdn: '353861234567', notifyId: 'A-1003' },
				],
			});
			const declan = nodeOutput(execution, 'Schedule Reminder')[3];
			expect(declan.counts).toMatchObject({ invalid: 1, accepted: 0 });
		},
	);
	describe('delivery fallback (wait for delivery; the inbox delivers receipts; Failed or No Receipt e-mails)', () => {
		const PHONE = '353871239999';
		let inboxUrl: string;
		let reminderId: string;
		let mail: SmtpSink;
		let smtp = { id: '', name: '' };

		beforeAll(async () => {
			const env = suite.env();
			mail = await startSmtpSink();
			smtp = await env.client.createCredential('Mail catcher', 'smtp', smtpCredentialData(mail));
			// A copy of the inbox on a webhook of its own: the other suites keep the example's.
			const inbox = loadExample('inbox', {
				questionLog,
				webhookId: '6b2e1d4f-8c3a-4f7b-9b0c-1d2e3f4a5b6c',
			});
			// Processing results are vouched for by the credential's URL token.
			const withUrlToken = await env.createCredential('Phonovation (inbox, URL token)', {
				urlToken: URL_TOKEN,
			});
			inboxUrl = await env.publish(
				await env.importWorkflow({ ...inbox, name: `${inbox.name} (receipts)` }, withUrlToken),
				'On Reply or Opt-Out',
			);
			const example = loadExample('delivery-fallback', { questionLog });
			reminderId = (
				await env.importWorkflow({
					...example,
					...withSmtpCredential(example, smtp),
					nodes: withSmtpCredential(example, smtp).nodes.map((node) => {
						if (node.name !== 'Appointment') return node;
						// A number of its own: the appointment tests opt theirs out.
						const parameters = JSON.parse(
							JSON.stringify(node.parameters).replace('353871234567', PHONE),
						) as Record<string, unknown>;
						return { ...node, parameters };
					}),
				})
			).id;
		}, 60_000);
		afterAll(async () => await mail?.stop());

		for (const { delivered, branch, mails } of [
			{ delivered: false, branch: 2, mails: 1 },
			{ delivered: true, branch: 1, mails: 0 },
		]) {
			suite.it(
				`a ${delivered ? 'delivered' : 'failed'} receipt runs the ${delivered ? 'Delivered' : 'Failed'} branch${mails ? ', which e-mails the reminder' : ', and nothing is e-mailed'}`,
				async ({ client, sim }) => {
					sim.reset();
					mail.mails.length = 0;
					const executionId = await client.runManually(reminderId, 'Start');
					await waitingAt({ client }, executionId);
					const [text] = sim.campaigns.map((c) => c.body.recipientInfo[0]);
					expect(text).toEqual({ msisdn: PHONE, notifyId: expect.stringMatching(/^\d+\.0\./) });
					const relay = await sim.sendReceipt({
						url: inboxUrl,
						notifyId: text.notifyId,
						to: PHONE,
						success: delivered,
					});
					expect(relay.status).toBe(200);
					const run = await client.waitForExecution(executionId, 60_000);
					expect(run.status).toBe('success');
					expect(nodeOutput(run, 'Text Reminder', branch)).toEqual([
						expect.objectContaining({
							name: 'Aoife',
							email: 'aoife@example.com',
							delivery: delivered ? 'delivered' : 'failed',
						}),
					]);
					expect(nodeOutput(run, 'Delivered')).toHaveLength(delivered ? 1 : 0);
					if (mails) {
						const [sent] = await mail.waitFor(1);
						expect(sent.to).toEqual(['aoife@example.com']);
						expect(sent.data).toMatch(/^Subject: Your appointment tomorrow at 10:00$/m);
						expect(sent.data).toMatch(/could not confirm that the text reached you/);
					}
					expect(mail.mails).toHaveLength(mails);
					expect(sim.campaigns).toHaveLength(1);
				},
				120_000,
			);
		}

		suite.it(
			'a processing result that refuses the number, through the inbox, runs the Failed branch, which e-mails the reminder',
			async ({ client, sim }) => {
				sim.reset();
				mail.mails.length = 0;
				const executionId = await client.runManually(reminderId, 'Start');
				await waitingAt({ client }, executionId);
				const [text] = sim.campaigns.map((c) => c.body.recipientInfo[0]);
				const relay = await sim.sendProcessingResult({
					url: `${inboxUrl}?token=${URL_TOKEN}`,
					status: 'MESSAGE_ERROR',
					notifyId: text.notifyId,
				});
				expect(relay.status).toBe(200);
				const run = await client.waitForExecution(executionId, 60_000);
				expect(run.status).toBe('success');
				expect(nodeOutput(run, 'Text Reminder', 2)).toEqual([
					expect.objectContaining({ email: 'aoife@example.com', delivery: 'failed' }),
				]);
				const [sent] = await mail.waitFor(1);
				expect(sent.to).toEqual(['aoife@example.com']);
				expect(sim.campaigns).toHaveLength(1);
			},
			120_000,
		);
	});
});
