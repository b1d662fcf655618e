/**
 * The child process of `personalised-1k-tls` (cases/personalised1kTls.ts): started with
 * NODE_EXTRA_CA_CERTS naming the certificate given as its arguments; prints its CaseResult as
 * one JSON line on stdout, progress on stderr.
 */
import './env';

import { readFileSync } from 'node:fs';

import { personalised1kTlsHere } from '../cases/personalised1kTls';
import { failed } from './report';

async function main(): Promise<void> {
	const [certFile, keyFile] = process.argv.slice(2);
	const certificate = {
		certFile,
		keyFile,
		cert: readFileSync(certFile, 'utf8'),
		key: readFileSync(keyFile, 'utf8'),
	};
	const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
	let result;
	try {
		result = await personalised1kTlsHere(certificate, log);
	} catch (error) {
		result = failed('personalised-1k-tls', error);
	}
	process.stdout.write(`${JSON.stringify(result)}\n`);
}

void main();
