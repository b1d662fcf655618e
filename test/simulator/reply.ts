/**
 * `npm run simulator:reply -- "YES please"`: asks a running simulator to post a signed inbound
 * relay with that text to its relay URL, and prints the relay URL's HTTP status and the
 * SMS-NotifyId the reply carried (linked to the last message out to --from unless --unlinked).
 * Several texts (`-- "Hi" "move me to Friday"`) go one after another, as a person texts a burst.
 */
import { parseArgs } from 'node:util';
import { request } from 'undici';

import { DEFAULT_CLI_PORT } from './config';
import { inboxOutcome } from './inboxOutcome';

const USAGE = `Usage: npm run simulator:reply -- "message text" ["another text" …] [--url http://127.0.0.1:${DEFAULT_CLI_PORT}] [--from 353871111111] [--notify-id id | --unlinked] [--relay-url url] [--n8n http://localhost:5678]`;

interface InboundAnswer {
	status?: number;
	error?: string;
	notifyId?: string | null;
	linkedTo?: { outbound: string; id: number } | null;
}

/** Which SMS-NotifyId the reply carried, and why: `SMS-NotifyId q-1 (linked to campaign 2)`. */
function describeNotifyId(answer: InboundAnswer, explicit: boolean): string {
	const value = answer.notifyId ? answer.notifyId : 'empty';
	const link = answer.linkedTo;
	if (explicit) return `SMS-NotifyId ${value} (as given)`;
	if (!link) return `SMS-NotifyId ${value} (not linked)`;
	const message = `${link.outbound === 'legacy' ? 'legacy send' : 'campaign'} ${link.id}`;
	return `SMS-NotifyId ${value} (linked to ${message}${answer.notifyId ? '' : ', which had none'})`;
}

async function main(): Promise<number> {
	const { values, positionals } = parseArgs({
		args: process.argv.slice(2),
		allowPositionals: true,
		options: {
			url: { type: 'string', default: `http://127.0.0.1:${DEFAULT_CLI_PORT}` },
			from: { type: 'string' },
			'notify-id': { type: 'string' },
			'relay-url': { type: 'string' },
			n8n: { type: 'string' },
			unlinked: { type: 'boolean' },
		},
	});
	const texts = positionals.filter((text) => text !== '');
	if (texts.length === 0) {
		process.stderr.write(`${USAGE}\n`);
		return 2;
	}
	const base = values.url.replace(/\/+$/, '');
	const since = Date.now();
	for (const content of texts) {
		const response = await request(`${base}/_sim/relay/inbound`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				content,
				from: values.from,
				notifyId: values['notify-id'],
				linked: values.unlinked === true ? false : undefined,
				url: values['relay-url'],
			}),
		});
		const result = (await response.body.json()) as InboundAnswer;
		if (response.statusCode !== 200) {
			process.stderr.write(
				`Simulator at ${base} refused: ${result.error ?? response.statusCode}\n`,
			);
			return 1;
		}
		const which = texts.length > 1 ? `${JSON.stringify(content)}: ` : '';
		process.stdout.write(`${which}Relay URL answered HTTP ${result.status}\n`);
		process.stdout.write(`${describeNotifyId(result, values['notify-id'] !== undefined)}\n`);
	}
	// The demo's n8n (its owner's login): what the inbox did with it.
	if (values.n8n)
		process.stdout.write(
			`${await inboxOutcome(values.n8n, since, 'Deliver to Waiting Question')}\n`,
		);
	return 0;
}

main().then(
	(code) => process.exit(code),
	(error) => {
		process.stderr.write(`Could not reach the simulator: ${(error as Error).message}\n`);
		process.exit(1);
	},
);
