/**
 * What the demo's n8n did with a relay the simulator just posted: `simulator:reply` and
 * `simulator:receipt` print it when given `--n8n <url>` (the demo's n8n, logged in as its owner,
 * never set up: it only logs in). The inbox's first run after the relay is read, then the run it
 * resumed, if any.
 */
import { N8nClient, nodeOutput } from '../e2e/support/n8n-client';

const INBOX = 'Phonovation: inbox';
const ASSISTANT = 'Phonovation: SMS assistant';
// Long enough for a loaded 2-core machine; only a run that never comes waits it out.
const WAIT_MS = 90_000;

const pause = () => new Promise((resolve) => setTimeout(resolve, 250));

/** The inbox's first finished run that started at `since` or later. */
async function inboxRun(client: N8nClient, since: number): Promise<string | undefined> {
	const inbox = (await client.workflows()).find((w) => w.active && w.name.startsWith(INBOX));
	if (!inbox) return undefined;
	for (const deadline = Date.now() + WAIT_MS; Date.now() < deadline; await pause()) {
		// Newest first: the earliest run started since the relay is the last of them. Only runs a
		// relay started: the inbox also runs as the Question Log (mode "integrated").
		const runs = await client.executions(inbox.id, 20, { mode: 'webhook' });
		const run = runs.filter((e) => Date.parse(e.startedAt ?? '') >= since - 1_000).at(-1);
		if (run?.status === 'running' || run?.status === 'new') continue;
		if (run) return run.id;
	}
	return undefined;
}

/** How the resumed run ended, once it has. */
async function resumedRun(client: N8nClient, id: string): Promise<string> {
	for (const deadline = Date.now() + WAIT_MS; Date.now() < deadline; await pause()) {
		const { status } = await client.execution(id);
		if (status !== 'running' && status !== 'waiting' && status !== 'new') return status;
	}
	return 'still running';
}

type DeliverNode = 'Deliver to Waiting Question' | 'Deliver to Waiting Text';

/**
 * One line on what became of the relay: which run it resumed and how, or why none. Another n8n than
 * the demo's (its owner's login refused, or nothing there) gets a line on what to do, not a stack
 * trace: the relay went through all the same.
 */
export async function inboxOutcome(
	n8nUrl: string,
	since: number,
	deliverNode: DeliverNode,
): Promise<string> {
	const client = new N8nClient(n8nUrl);
	try {
		await client.login();
	} catch {
		return `The relay went through, but --n8n reads only the demo's n8n (npm start), logged in as its owner, and ${n8nUrl} did not take that login. On your own n8n, open the inbox workflow's Executions to see what it did.`;
	}
	try {
		return await outcome(client, since, deliverNode);
	} catch (error) {
		return `The relay went through; reading what n8n did with it failed (${(error as Error).message}). Open the inbox workflow's Executions in n8n.`;
	}
}

async function outcome(
	client: N8nClient,
	since: number,
	deliverNode: DeliverNode,
): Promise<string> {
	const runId = await inboxRun(client, since);
	if (!runId) return `The inbox did not finish a run within ${WAIT_MS / 1000} s`;
	const handled = await client.execution(runId);
	if (handled.status !== 'success')
		return `The inbox run (execution ${runId}) ended: ${handled.status}`;
	const [delivered] = nodeOutput(handled, deliverNode);
	if (delivered?.handedToAssistant === true)
		return `The inbox (execution ${runId}) handed it to the assistant. ${await assistantOutcome(client, since)}`;
	if (!delivered)
		return `The inbox (execution ${runId}) handled it without ${deliverNode} (a keyword, an opt-out or a refusal)`;
	const about = (delivered.question ?? delivered.text) as { executionId?: string } | undefined;
	if (delivered.unconfirmed === true)
		return `Execution ${String(about?.executionId)} may have taken it (unconfirmed): ${String(delivered.reason)}`;
	if (delivered.resumed !== true)
		return `No run resumed (inbox execution ${runId}): ${String(delivered.reason ?? 'no reason given')}`;
	const resumed = String(about?.executionId);
	const outcome =
		delivered.answer !== undefined
			? `answer ${String(delivered.answer)}`
			: `delivery ${String(delivered.delivery)}`;
	return `Resumed execution ${resumed} (${outcome}); it ended: ${await resumedRun(client, resumed)}`;
}

/** What the assistant made of the texts since `since`: its turns, and what each replied. */
async function assistantOutcome(client: N8nClient, since: number): Promise<string> {
	const assistant = (await client.workflows()).find((w) => w.active && w.name === ASSISTANT);
	if (!assistant) return 'The assistant workflow is not published';
	for (const deadline = Date.now() + WAIT_MS; Date.now() < deadline; await pause()) {
		const runs = (await client.executions(assistant.id, 50)).filter(
			(e) => Date.parse(e.startedAt ?? '') >= since - 1_000,
		);
		if (runs.length === 0 || runs.some((e) => !FINISHED.includes(String(e.status)))) continue;
		const lines: string[] = [];
		for (const run of runs.reverse()) {
			const execution = await client.execution(String(run.id));
			const [turn] = nodeOutput(execution, 'Collect Burst');
			if (!turn) continue;
			const [answer] = nodeOutput(execution, 'AI Agent');
			const [reply] = nodeOutput(execution, 'Reply');
			const sent =
				reply?.sent === false
					? `not sent: ${String(reply.reason)}`
					: String(reply?.status ?? run.status);
			lines.push(
				`One turn of ${String(turn.count)} text(s) ${JSON.stringify(turn.text)} → replied ${JSON.stringify(answer?.output ?? '')} (${sent})`,
			);
		}
		const merged = runs.length - lines.length;
		return `${lines.join('; ') || 'No turn yet'}${merged > 0 ? ` (${merged} run(s) merged into a turn or ended on No Turn)` : ''}`;
	}
	return `The assistant did not finish within ${WAIT_MS / 1000} s`;
}

const FINISHED = ['success', 'error', 'crashed', 'canceled'];
