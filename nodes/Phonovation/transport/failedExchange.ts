// A failed HTTP exchange as the transport keeps it: what failures.ts makes of an error, what
// processed.ts judges and request.ts hands back. A module of its own, so neither imports the other.
/** What a failed HTTP exchange tells us, without request options (they hold the token). */
export interface FailedExchange {
	status?: number;
	body?: unknown;
	retryAfter?: string;
	code?: string;
	/** The message of the error that carried `code` (n8n may reword the outer one); never shown. */
	detail?: string;
	/** The system call that failed (`connect`, `getaddrinfo`, `write`…), where the error says. */
	syscall?: string;
	message: string;
	/** The credential's login failed: repeating the call would fail the same way. */
	loginFailed?: boolean;
}
