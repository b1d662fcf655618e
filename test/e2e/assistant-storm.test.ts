// A reply storm through the shipped inbox and sms-assistant: counts, not timings (npm run bench times it).
import { publishOurs } from '../bench/cases/assistantStorm';
import {
	executionCount,
	outcomeOf,
	runStorm,
	stormPlan,
	untilAnswered,
} from '../bench/support/storm';
import { CHAT_COMPLETIONS } from '../simulator/chatModel';
import { useE2eEnvironment } from './support/environment';

describe('a reply storm: many people texting the longcode at once, some in bursts', () => {
	const suite = useE2eEnvironment();

	suite.it(
		'30 people within 5 s, the first texts on a fresh n8n: each gets exactly one reply, every relay is answered 200, no execution is left running or waiting',
		async (env) => {
			// First runs: every run that finds no table races to create the inbox's and the assistant's.
			expect(await env.client.dataTables()).toEqual([]);
			const send = await publishOurs(
				{
					client: env.client,
					sim: env.sim,
					importWorkflow: (workflow) => env.importWorkflow(workflow),
					webhookUrl: (webhookPath) => env.n8n.webhookUrl(webhookPath),
				},
				// Whole-second stamps prove texts sent 1.2 s apart were sent within 3 s, not always
				// within 2 s: a backlog may still cut a burst at 2 s (docs/conversations.md).
				3,
			);
			env.sim.reset();
			env.sim.injectFault(CHAT_COMPLETIONS, { kind: 'delay', ms: 200 }, 1_000);
			const plan = stormPlan(30, 5, 7, 42);
			const sent = await runStorm(plan, send);
			await untilAnswered(env.sim, plan, { deadlineMs: 120_000, settleMs: 5_000 });
			const outcome = outcomeOf(plan, sent, env.sim);
			expect(sent.failures).toEqual([]);
			expect({ one: outcome.exactlyOne, none: outcome.none, more: outcome.twoOrMore }).toEqual({
				one: plan.length,
				none: 0,
				more: 0,
			});
			expect(await executionCount(env.client, ['new', 'running', 'waiting'])).toBe(0);
		},
		240_000,
	);
});
