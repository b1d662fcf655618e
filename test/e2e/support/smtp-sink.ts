import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

import { withNodeCredential, type WorkflowJson } from './n8n-client';

/** One message n8n's Send Email node handed over. */
export interface CaughtMail {
	from: string;
	to: string[];
	/** The message as sent: headers, a blank line, the body (dot-stuffing undone). */
	data: string;
}

/**
 * A local mail catcher: the smallest SMTP server n8n's Send Email node (nodemailer) completes a
 * send with, on 127.0.0.1, no TLS and no authentication. It keeps every message, delivers none.
 */
export interface SmtpSink {
	port: number;
	mails: CaughtMail[];
	/** Resolves when `count` messages have been caught. */
	waitFor(count: number, timeoutMs?: number): Promise<CaughtMail[]>;
	stop(): Promise<void>;
}

function serve(socket: Socket, caught: (mail: CaughtMail) => void): void {
	let buffer = '';
	let mail: CaughtMail = { from: '', to: [], data: '' };
	let inData = false;
	const reply = (line: string) => socket.write(`${line}\r\n`);
	reply('220 localhost ESMTP mail catcher');
	socket.setEncoding('utf8');
	socket.on('error', () => socket.destroy());
	socket.on('data', (chunk: string) => {
		buffer += chunk;
		for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
			const line = buffer.slice(0, end);
			buffer = buffer.slice(end + 2);
			if (inData) {
				if (line === '.') {
					inData = false;
					caught(mail);
					mail = { from: '', to: [], data: '' };
					reply('250 OK: queued');
				} else mail.data += `${line.startsWith('..') ? line.slice(1) : line}\n`;
				continue;
			}
			const command = line.slice(0, 4).toUpperCase();
			if (command === 'EHLO' || command === 'HELO') reply('250 localhost');
			else if (command === 'MAIL') {
				mail.from = /<([^>]*)>/.exec(line)?.[1] ?? '';
				reply('250 OK');
			} else if (command === 'RCPT') {
				mail.to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
				reply('250 OK');
			} else if (command === 'DATA') {
				inData = true;
				reply('354 End data with <CR><LF>.<CR><LF>');
			} else if (command === 'QUIT') {
				reply('221 Bye');
				socket.end();
			} else if (command === 'RSET') {
				mail = { from: '', to: [], data: '' };
				reply('250 OK');
			} else reply('250 OK');
		}
	});
}

export async function startSmtpSink(
	port = 0,
	onMail: (mail: CaughtMail) => void = () => {},
): Promise<SmtpSink> {
	const mails: CaughtMail[] = [];
	const waiters: Array<() => void> = [];
	const server: Server = createServer((socket) =>
		serve(socket, (mail) => {
			mails.push(mail);
			onMail(mail);
			for (const wake of waiters.splice(0)) wake();
		}),
	);
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
	return {
		port: (server.address() as AddressInfo).port,
		mails,
		async waitFor(count, timeoutMs = 60_000) {
			const deadline = Date.now() + timeoutMs;
			while (mails.length < count) {
				if (Date.now() > deadline)
					throw new Error(`${mails.length} of ${count} e-mails arrived in ${timeoutMs} ms`);
				await new Promise<void>((resolve) => {
					waiters.push(resolve);
					setTimeout(resolve, 250);
				});
			}
			return mails.slice(0, count);
		},
		stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

/** The demo's SMTP credential, pointing at its mail catcher. */
export const MAIL_CREDENTIAL_NAME = 'Mail catcher (local)';

/** n8n's SMTP credential for the sink (no TLS, no login). */
export const smtpCredentialData = (sink: SmtpSink) => ({
	user: '',
	password: '',
	host: '127.0.0.1',
	port: sink.port,
	secure: false,
	disableStartTls: true,
});

/** A caught message's Subject header (unfolded), or "(no subject)". */
export const subjectOf = (mail: CaughtMail) =>
	/^Subject: (.*(?:\n[ \t].*)*)$/m.exec(mail.data)?.[1].replace(/\n[ \t]/g, ' ') ?? '(no subject)';

/** Binds every Send Email node of a workflow to an SMTP credential. */
export const withSmtpCredential = (
	workflow: WorkflowJson,
	credential: { id: string; name: string },
): WorkflowJson =>
	withNodeCredential(
		workflow,
		(node) => node.type === 'n8n-nodes-base.emailSend',
		'smtp',
		credential,
	);
