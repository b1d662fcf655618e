import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

import { DEFAULT_CLI_PORT, parseCampaignLimit, parseSenders, type SimulatorConfig } from './config';

export const USAGE = `Usage: npm run simulator -- [options]

  --port <n>            port on 127.0.0.1 (default ${DEFAULT_CLI_PORT}; 0 = a free one)
  --username <u>        token and legacy username (default demo)
  --password <p>        token and legacy password (default demo-password)
  --relay-secret <s>    key of the SMS-Verify MD5 (default demo-relay-secret)
  --api-id <id>         legacy api_id (default 1234)
  --senders <list>      approved sender IDs as name:type pairs, e.g. "Phonovation:0,FreeText:1"
  --token-ttl <s>       access-token lifetime in seconds (default 120)
  --refresh-ttl <s>     refresh-token lifetime in seconds (default 1200)
  --relay-url <url>     where relays, receipts and processing results are POSTed
  --unlinked-replies    replies carry no NotifyId unless one is given (default: the last
                        message's notifyId to that number, like the provider)
  --campaign-limit <n[:s]>  at most n campaign requests in flight; more are answered 429
                        with Retry-After s seconds (default 1), like a rate-limited account
  --tls-cert <file> --tls-key <file>
                        serve HTTPS with this certificate and key (PEM), as the live API does
  --help                show this text`;

function seconds(flag: string, value: string | undefined): number | undefined {
	if (value === undefined) return undefined;
	const n = Number(value);
	if (!Number.isFinite(n) || n <= 0)
		throw new Error(`--${flag} must be a positive number of seconds`);
	return n;
}

/** Turns CLI flags into a simulator config; undefined entries fall back to the defaults. */
export function parseCliArgs(argv: string[]): { help: boolean; config: Partial<SimulatorConfig> } {
	const { values } = parseArgs({
		args: argv,
		strict: true,
		options: {
			port: { type: 'string' },
			username: { type: 'string' },
			password: { type: 'string' },
			'relay-secret': { type: 'string' },
			'api-id': { type: 'string' },
			senders: { type: 'string' },
			'token-ttl': { type: 'string' },
			'refresh-ttl': { type: 'string' },
			'relay-url': { type: 'string' },
			'unlinked-replies': { type: 'boolean' },
			'campaign-limit': { type: 'string' },
			'tls-cert': { type: 'string' },
			'tls-key': { type: 'string' },
			help: { type: 'boolean' },
		},
	});
	const port = values.port === undefined ? DEFAULT_CLI_PORT : Number(values.port);
	if (!Number.isInteger(port) || port < 0 || port > 65535)
		throw new Error('--port must be 0 to 65535');
	if ((values['tls-cert'] === undefined) !== (values['tls-key'] === undefined))
		throw new Error('--tls-cert and --tls-key go together');
	const tls =
		values['tls-cert'] === undefined || values['tls-key'] === undefined
			? undefined
			: {
					cert: readFileSync(values['tls-cert'], 'utf8'),
					key: readFileSync(values['tls-key'], 'utf8'),
				};
	return {
		help: values.help === true,
		config: {
			port,
			username: values.username,
			password: values.password,
			relaySecret: values['relay-secret'],
			apiId: values['api-id'],
			senders: values.senders === undefined ? undefined : parseSenders(values.senders),
			tokenTtl: seconds('token-ttl', values['token-ttl']),
			refreshTtl: seconds('refresh-ttl', values['refresh-ttl']),
			relayUrl: values['relay-url'],
			linkReplies: values['unlinked-replies'] === true ? false : undefined,
			campaignLimit:
				values['campaign-limit'] === undefined
					? undefined
					: parseCampaignLimit(values['campaign-limit']),
			tls,
		},
	};
}
