import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
	method: string;
	path: string;
	headers: IncomingMessage['headers'];
	body: string;
}

export type Handler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

/** A small HTTP server on 127.0.0.1 that records every request it answers. */
export class LoopbackServer {
	readonly requests: RecordedRequest[] = [];

	private server?: Server;

	constructor(private readonly handler: Handler) {}

	async start(): Promise<string> {
		this.server = createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (c: Buffer) => chunks.push(c));
			req.on('end', () => {
				const recorded: RecordedRequest = {
					method: req.method ?? '',
					path: req.url ?? '',
					headers: req.headers,
					body: Buffer.concat(chunks).toString('utf8'),
				};
				this.requests.push(recorded);
				Promise.resolve(this.handler(recorded, res)).catch((error) => {
					res.statusCode = 500;
					res.end(String(error));
				});
			});
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	count(method: string, path: string): number {
		return this.requests.filter((r) => r.method === method && r.path.split('?')[0] === path).length;
	}

	async stop(): Promise<void> {
		await new Promise<void>((resolve) =>
			this.server ? this.server.close(() => resolve()) : resolve(),
		);
	}
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
	res.writeHead(status, { 'Content-Type': 'application/json' });
	res.end(JSON.stringify(body));
}
