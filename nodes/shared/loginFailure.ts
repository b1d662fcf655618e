// A failed credential login, and finding one among an error's causes: a repeat fails the same way.
import { UserError } from 'n8n-workflow';

/**
 * The credential's login (password grant) failed. Thrown by `preAuthentication`; n8n wraps it in
 * its own errors, so callers look for it along the cause chain with `isLoginFailure`.
 */
export class LoginFailedError extends UserError {
	override readonly name = 'PhonovationLoginFailedError';
}

/** Whether `error` or one of its causes is a failed login: repeating the request would fail the same way. */
export function isLoginFailure(error: unknown): boolean {
	let current = error as { name?: unknown; cause?: unknown } | undefined;
	for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
		if (current instanceof LoginFailedError || current.name === 'PhonovationLoginFailedError')
			return true;
		current = current.cause as typeof current;
	}
	return false;
}
