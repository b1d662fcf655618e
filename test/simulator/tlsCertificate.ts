import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TlsCertificate {
	/** PEM files, for `--tls-cert`/`--tls-key` and for the client's `NODE_EXTRA_CA_CERTS`. */
	certFile: string;
	keyFile: string;
	cert: string;
	key: string;
}

/**
 * A self-signed certificate for 127.0.0.1 and localhost, made with the machine's `openssl` in a
 * new temp folder: the simulator serves HTTPS with it, and a client trusts it as an extra CA (the
 * node itself never skips certificate checks).
 */
export function selfSignedCertificate(): TlsCertificate {
	const dir = mkdtempSync(path.join(tmpdir(), 'phonovation-tls-'));
	const certFile = path.join(dir, 'simulator.crt');
	const keyFile = path.join(dir, 'simulator.key');
	execFileSync(
		'openssl',
		[
			'req',
			'-x509',
			'-newkey',
			'ec',
			'-pkeyopt',
			'ec_paramgen_curve:prime256v1',
			'-nodes',
			'-days',
			'2',
			'-subj',
			'/CN=Phonovation simulator',
			'-addext',
			'subjectAltName=IP:127.0.0.1,DNS:localhost',
			'-keyout',
			keyFile,
			'-out',
			certFile,
		],
		{ stdio: 'ignore' },
	);
	return {
		certFile,
		keyFile,
		cert: readFileSync(certFile, 'utf8'),
		key: readFileSync(keyFile, 'utf8'),
	};
}
