/** Why a relay is refused, as the HTTP status and the short reason the sender gets back. */
export class RelayRejection extends Error {
	constructor(
		readonly status: 400 | 401 | 413,
		readonly reason: string,
	) {
		super(reason);
		this.name = 'RelayRejection';
	}
}

export function badRequest(reason: string): RelayRejection {
	return new RelayRejection(400, reason);
}

export function unauthorized(reason: string): RelayRejection {
	return new RelayRejection(401, reason);
}
