import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/** HS256 JSON Web Tokens signed with a key that lives and dies with one simulator. */
export class TokenIssuer {
	private readonly key = randomBytes(32);

	constructor(private readonly issuer: string) {}

	sign(claims: Record<string, unknown>): string {
		const header = encode({ alg: 'HS256', typ: 'JWT' });
		const payload = encode({ jti: randomUUID(), iss: this.issuer, ...claims });
		return `${header}.${payload}.${this.signature(`${header}.${payload}`)}`;
	}

	/** The claims when the signature verifies; expiry is the caller's business. */
	verify(token: string): Record<string, unknown> | undefined {
		const parts = token.split('.');
		if (parts.length !== 3) return undefined;
		const [header, payload, signature] = parts;
		const expected = Buffer.from(this.signature(`${header}.${payload}`));
		const given = Buffer.from(signature);
		if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
		try {
			if ((decode(header) as { alg?: unknown }).alg !== 'HS256') return undefined;
			const claims = decode(payload);
			return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : undefined;
		} catch {
			return undefined;
		}
	}

	private signature(data: string): string {
		return createHmac('sha256', this.key).update(data).digest('base64url');
	}
}

function encode(value: unknown): string {
	return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function decode(part: string): unknown {
	return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
}
