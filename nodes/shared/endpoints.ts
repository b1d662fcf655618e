// The credential's URLs joined with paths, and refused unless https (http only to a local host).
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { UserError } from 'n8n-workflow';

/** `base` (a credential URL field, with or without trailing slashes) joined with an absolute `path`. */
export function endpoint(base: unknown, path: string): string {
	return `${String(base ?? '').replace(/\/+$/, '')}${path}`;
}

/** The credential's URL fields and the labels the user sees on the form. */
const ENDPOINT_FIELDS = {
	authUrl: 'Auth URL',
	baseUrl: 'Base URL',
	legacyBaseUrl: 'Legacy Base URL',
} as const;

type EndpointField = keyof typeof ENDPOINT_FIELDS;

/** A credential URL that would send a secret in clear text over the internet, or is no URL at all. */
export class InsecureEndpointError extends UserError {
	override readonly name = 'PhonovationInsecureEndpointError';
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/;

/**
 * Loopback (127/8, ::1, localhost) or private (10/8, 172.16/12, 192.168/16, fc00::/7): traffic that
 * stays on this machine or a network the user runs. `hostname` is WHATWG-parsed, so IPv4 is already
 * dotted decimal and IPv6 is bracketed without leading zeros (`[fc::1]` is 0x00fc, not fc00::/7).
 * Link-local (169.254/16, fe80::/10) is left out on purpose: cloud metadata services live there.
 */
function isLocalHost(hostname: string): boolean {
	if (hostname === 'localhost' || hostname === '[::1]') return true;
	if (/^\[f[cd][0-9a-f]{2}:/.test(hostname)) return true;
	const ipv4 = IPV4.exec(hostname);
	if (!ipv4) return false;
	const [a, b] = [Number(ipv4[1]), Number(ipv4[2])];
	return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
}

/** The parsed URL when `text` is https, or http to a local host; otherwise undefined. */
export function safeUrl(text: string): URL | undefined {
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return undefined;
	}
	return url.protocol === 'https:' || (url.protocol === 'http:' && isLocalHost(url.hostname))
		? url
		: undefined;
}

/** `url` with any user:password part masked, so a message can show it. */
export function shown(url: string): string {
	return url.replace(/^((?:[a-z][\w+.-]*:)?\/\/)?[^/?#]*@/i, '$1***@');
}

/**
 * The URL of `path` below the credential's `field`, once it is known to be safe to send a secret
 * to; otherwise an InsecureEndpointError naming the field. The joined URL is what is checked, and
 * its parsed form is returned, so the request goes exactly where the check looked.
 */
export function secureEndpoint(
	credentials: ICredentialDataDecryptedObject,
	field: EndpointField,
	path: string,
): string {
	const value = String(credentials[field] ?? '').trim();
	const url = safeUrl(endpoint(value, path));
	if (url) return url.href;
	throw new InsecureEndpointError(
		`The credential's ${ENDPOINT_FIELDS[field]} must start with https:// (http:// is allowed only for this machine or a private network, such as the local simulator): ${shown(value) || '(empty)'}`,
	);
}

/** Every URL field checked; the first unsafe one is an InsecureEndpointError. */
export function assertSecureEndpoints(credentials: ICredentialDataDecryptedObject): void {
	for (const field of Object.keys(ENDPOINT_FIELDS) as EndpointField[])
		secureEndpoint(credentials, field, '');
}
