import { spawn } from 'node:child_process';
import { connect as tcpConnect } from 'node:net';
import path from 'node:path';
import { connect as tlsConnect } from 'node:tls';

import { selfSignedCertificate, type TlsCertificate } from '../../simulator/tlsCertificate';
import { type CaseResult, failed } from '../support/report';
import { startSimulatorProcess } from '../support/simulatorProcess';
import { median, round, timed } from '../support/stats';
import { personalised1k } from './personalised1k';

const NAME = 'personalised-1k-tls';
const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

/** Milliseconds to open a connection to `url`'s port: TCP only, or TCP and the TLS handshake. */
async function connectMs(url: string, withTls: boolean): Promise<number> {
	const { hostname, port } = new URL(url);
	const { ms } = await timed(
		() =>
			new Promise<void>((resolve, reject) => {
				const socket = withTls
					? tlsConnect({ host: hostname, port: Number(port) }, () => (socket.end(), resolve()))
					: tcpConnect({ host: hostname, port: Number(port) }, () => (socket.end(), resolve()));
				socket.once('error', reject);
			}),
	);
	return ms;
}

async function medianOf(times: number, work: () => Promise<number>): Promise<number> {
	const values: number[] = [];
	for (let i = 0; i < times; i++) values.push(await work());
	return median(values);
}

/**
 * `personalised-1k` over HTTPS, as the live API is: the simulator serves TLS with a certificate
 * this process trusts as an extra CA (NODE_EXTRA_CA_CERTS, as n8n would be given it), ours cold and
 * warm beside the hand-built workflow over the same TLS. It also reports how many requests came on
 * a new connection (n8n's request helper builds a new agent for every request, so each pays a
 * handshake) and what a handshake costs next to the provider's 50 ms.
 */
export async function personalised1kTlsHere(
	certificate: TlsCertificate,
	log: (line: string) => void,
): Promise<CaseResult> {
	const latencyMs = 50;
	let handshake = { tcpMs: 0, tlsMs: 0 };
	const result = await personalised1k({
		name: NAME,
		latencyMs,
		log,
		simulator: async () => {
			const sim = await startSimulatorProcess(certificate);
			handshake = {
				tcpMs: await medianOf(30, () => connectMs(sim.url, false)),
				tlsMs: await medianOf(30, () => connectMs(sim.url, true)),
			};
			return sim;
		},
	});
	const handshakeMs = Math.max(0, handshake.tlsMs - handshake.tcpMs);
	const share = handshake.tlsMs / (handshake.tlsMs + latencyMs);
	return {
		...result,
		line: {
			...result.line,
			tcpConnectMs: round(handshake.tcpMs, 2),
			tlsConnectMs: round(handshake.tlsMs, 2),
			handshakeMs: round(handshakeMs, 2),
			connectShareOfRequest: round(share, 3),
		},
		notes: [
			...(result.notes ?? []),
			`a new TLS connection on loopback takes ${round(handshake.tlsMs, 1)} ms (TCP alone ${round(handshake.tcpMs, 1)} ms): ${round(share * 100, 1)} % of a request to a provider answering in ${latencyMs} ms; n8n's request helper opens one per request for both contenders`,
		],
	};
}

/**
 * Runs the case in a child process that trusts the simulator's certificate: Node reads
 * NODE_EXTRA_CA_CERTS only when a process starts.
 */
export async function personalised1kTls(
	options: { log?: (line: string) => void } = {},
): Promise<CaseResult> {
	const certificate = selfSignedCertificate();
	const child = spawn(
		process.execPath,
		[
			'--import',
			'tsx',
			path.join('test', 'bench', 'support', 'tlsChild.ts'),
			certificate.certFile,
			certificate.keyFile,
		],
		{
			cwd: REPO_ROOT,
			stdio: ['ignore', 'pipe', 'pipe'],
			env: { ...process.env, NODE_EXTRA_CA_CERTS: certificate.certFile },
		},
	);
	let out = '';
	child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
	child.stderr!.on('data', (chunk: Buffer) =>
		chunk
			.toString('utf8')
			.split('\n')
			.filter(Boolean)
			.forEach((line) => options.log?.(line.replace(/^\[bench\] /, ''))),
	);
	const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
	const last = out.trim().split('\n').pop() ?? '';
	try {
		return JSON.parse(last) as CaseResult;
	} catch {
		return failed(NAME, new Error(`the TLS run exited ${code} without a result`));
	}
}
