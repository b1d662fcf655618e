/**
 * `npm run simulator:reply -- "YES please"`: asks a running simulator to post a signed inbound
 * relay with that text to its relay URL, and prints the relay URL's HTTP status.
 */
import { parseArgs } from 'node:util';
import { request } from 'undici';

import { DEFAULT_CLI_PORT } from './config';

const USAGE = `Usage: npm run simulator:reply -- "message text" [--url http://127.0.0.1:${DEFAULT_CLI_PORT}] [--from 353871111111] [--notify-id id] [--relay-url url]`;

async function main(): Promise<number> {
	const { values, positionals } = parseArgs({
		args: process.argv.slice(2),
		allowPositionals: true,
		options: {
			url: { type: 'string', default: `http://127.0.0.1:${DEFAULT_CLI_PORT}` },
			from: { type: 'string' },
			'notify-id': { type: 'string' },
			'relay-url': { type: 'string' },
		},
	});
	const content = positionals.join(' ');
	if (content === '') {
		process.stderr.write(`${USAGE}\n`);
		return 2;
	}
	const base = values.url.replace(/\/+$/, '');
	const response = await request(`${base}/_sim/relay/inbound`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({
			content,
			from: values.from,
			notifyId: values['notify-id'],
			url: values['relay-url'],
		}),
	});
	const result = (await response.body.json()) as { status?: number; error?: string };
	if (response.statusCode !== 200) {
		process.stderr.write(`Simulator at ${base} refused: ${result.error ?? response.statusCode}\n`);
		return 1;
	}
	process.stdout.write(`Relay URL answered HTTP ${result.status}\n`);
	return 0;
}

main().then(
	(code) => process.exit(code),
	(error) => {
		process.stderr.write(`Could not reach the simulator: ${(error as Error).message}\n`);
		process.exit(1);
	},
);
