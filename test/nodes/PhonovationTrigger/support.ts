import { RelayRejection } from '../../../nodes/PhonovationTrigger/rejection';

/** The RelayRejection `run` throws, or undefined when it throws none. */
export function rejectionOf(run: () => unknown): RelayRejection | undefined {
	try {
		run();
	} catch (error) {
		if (error instanceof RelayRejection) return error;
		throw error;
	}
	return undefined;
}
