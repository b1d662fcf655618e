/**
 * `npm run simulator:receipt -- delivered` (or `failed`): asks a running simulator to post a signed
 * delivery receipt for the last text it took (to --to, when given) to its relay URL, and prints
 * the relay URL's HTTP status and the SMS-NotifyId the receipt carried. Sending nothing is the
 * third case: a run waiting for that receipt goes on at No Receipt when its limit passes.
 */
import { parseArgs } from 'node:util';
import { request } from 'undici';

import { DEFAULT_CLI_PORT } from './config';
import { inboxOutcome } from './inboxOutcome';
import type { RecordedCampaign } from './simulator';

const USAGE = `Usage: npm run simulator:receipt -- delivered|failed [--url http://127.0.0.1:${DEFAULT_CLI_PORT}] [--to 353871234567] [--relay-url url] [--n8n http://localhost:5678]`;

/** The last recipient the simulator accepted (to `to`, when given): its number and Notify ID. */
export function lastText(
	campaigns: RecordedCampaign[],
	to?: string,
): { msisdn: string; notifyId: string } | null {
	for (const campaign of [...campaigns].reverse()) {
		const recipients = campaign.accepted.filter(
			(r) => r.notifyId && (to === undefined || r.msisdn === to.replace(/^\+/, '')),
		);
		const last = recipients.at(-1);
		if (last) return { msisdn: last.msisdn, notifyId: last.notifyId! };
	}
	return null;
}

async function main(): Promise<number> {
	const { values, positionals } = parseArgs({
		args: process.argv.slice(2),
		allowPositionals: true,
		options: {
			url: { type: 'string', default: `http://127.0.0.1:${DEFAULT_CLI_PORT}` },
			to: { type: 'string' },
			'relay-url': { type: 'string' },
			n8n: { type: 'string' },
		},
	});
	const outcome = positionals.join(' ').trim().toLowerCase();
	if (outcome !== 'delivered' && outcome !== 'failed') {
		process.stderr.write(`${USAGE}\n`);
		return 2;
	}
	const base = values.url.replace(/\/+$/, '');
	const listed = await request(`${base}/_sim/campaigns`);
	const text = lastText((await listed.body.json()) as RecordedCampaign[], values.to);
	if (!text) {
		process.stderr.write(
			`The simulator has taken no text with a Notify ID${values.to ? ` to ${values.to}` : ''} yet\n`,
		);
		return 1;
	}
	const since = Date.now();
	const response = await request(`${base}/_sim/relay/receipt`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({
			notifyId: text.notifyId,
			to: text.msisdn,
			success: outcome === 'delivered',
			url: values['relay-url'],
		}),
	});
	const result = (await response.body.json()) as { status?: number; error?: string };
	if (response.statusCode !== 200) {
		process.stderr.write(`Simulator at ${base} refused: ${result.error ?? response.statusCode}\n`);
		return 1;
	}
	process.stdout.write(`Relay URL answered HTTP ${result.status}\n`);
	process.stdout.write(
		`Receipt: ${outcome} for the text to ${text.msisdn}, SMS-NotifyId ${text.notifyId}\n`,
	);
	// The demo's n8n (its owner's login): what the inbox did with it.
	if (values.n8n)
		process.stdout.write(`${await inboxOutcome(values.n8n, since, 'Deliver to Waiting Text')}\n`);
	return 0;
}

if (require.main === module)
	main().then(
		(code) => process.exit(code),
		(error) => {
			process.stderr.write(`Could not reach the simulator: ${(error as Error).message}\n`);
			process.exit(1);
		},
	);
