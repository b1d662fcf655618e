// Opting back in, in a real n8n: a signed START after a STOP takes the number off the suppression
// list once, so the next campaign texts it; a copy of that START, or a stranger's, changes nothing.
import { randomUUID } from 'node:crypto';

import { useE2eEnvironment } from './support/environment';
import { loadExample } from './support/examples';
import { type Execution, nodeOutput } from './support/n8n-client';

const CIARA = '353861234567';
const AOIFE = '353871234501';
const BRIAN = '353871234502';
const RELAYS = { mode: 'webhook' };

describe('opting back in through the inbox, in n8n', () => {
	const suite = useE2eEnvironment();

	suite.it(
		"START after STOP lets the next campaign text the number; the same START posted again after a second STOP, a stranger's START or a copy with its boundary moved changes nothing",
		async (env) => {
			const { client, sim } = env;
			const inbox = await env.importWorkflow(
				loadExample('inbox', { webhookId: randomUUID(), keywordReplies: false }),
			);
			const url = await env.publish(inbox, 'On Reply or Opt-Out');
			const campaign = await env.importWorkflow(loadExample('campaign-excluding-opt-outs'));
			let relays = 0;
			const relayRun = async (): Promise<Execution> => {
				const run = (await client.waitForExecutions(inbox.id, ++relays, 60_000, RELAYS)).at(-1)!;
				expect({ status: run.status, error: run.data.resultData.error?.message }).toEqual({
					status: 'success',
					error: undefined,
				});
				return run;
			};
			/** The numbers the campaign example texts now. */
			const campaignTexts = async (): Promise<string[]> => {
				sim.reset();
				const run = await client.runAndWait(campaign.id, 'Run Campaign');
				expect(run.status).toBe('success');
				return sim.campaigns.flatMap((c) =>
					(c.body.recipientInfo as Array<{ msisdn: string }>).map((r) => r.msisdn),
				);
			};
			const start = async (from: string, content = 'START') => {
				await sim.sendInbound({ url, from, content, linked: false });
				return nodeOutput(await relayRun(), 'Deliver to Waiting Question')[0];
			};
			const stop = async () => {
				await sim.sendOptOut({ url, from: CIARA, content: 'STOP' });
				await relayRun();
			};

			await stop();
			expect(await campaignTexts()).not.toContain(CIARA);

			// A stranger's START, and a copy of Ciara's with the From/Content boundary moved (an
			// inbound text of another number), come first: neither takes Ciara off the list.
			expect(await start(AOIFE)).toMatchObject({ optIn: { honoured: true } });
			await sim.sendInbound({
				url,
				from: CIARA.slice(0, -1),
				content: `${CIARA.slice(-1)}Start`,
				linked: false,
			});
			await relayRun();
			expect(await campaignTexts()).not.toContain(CIARA);

			// Her own START: off the list, texted by the next campaign.
			expect(await start(CIARA)).toMatchObject({ event: 'optIn', optIn: { honoured: true } });
			expect(await campaignTexts()).toContain(CIARA);

			// STOP again; the same START posted again (a replay with a fresh time stamp) changes nothing.
			await stop();
			expect(await start(CIARA)).toMatchObject({
				optIn: { honoured: false, reason: expect.stringMatching(/another start word/) },
			});
			expect(await campaignTexts()).not.toContain(CIARA);
			// Another start word is her way back; an opt-in is no text to answer: the inbox texts nothing.
			sim.reset();
			expect(await start(CIARA, 'unstop')).toMatchObject({ optIn: { honoured: true } });
			expect(sim.campaigns).toEqual([]);
			expect(await campaignTexts()).toContain(CIARA);

			// An opt-out stored after the START arrived (by n8n's clock: a START run retried after a
			// later STOP, or run behind it in queue mode) is never removed by that START.
			const optOuts = (await client.dataTables()).find((table) => table.name === 'opt-outs')!;
			await client.insertDataTableRows(optOuts.id, [
				{ phone: BRIAN, optedOutAt: '2999-01-01T00:00:00.000Z' },
			]);
			expect(await start(BRIAN)).toMatchObject({ optIn: { honoured: true } });
			expect((await client.dataTableRows(optOuts.id)).map((row) => row.phone)).toContain(BRIAN);
			expect(await campaignTexts()).not.toContain(BRIAN);
		},
		300_000,
	);
});
