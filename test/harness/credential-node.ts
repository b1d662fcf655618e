import type { INode } from 'n8n-workflow';

/** A node of `type` with these parameters, using the stored Phonovation credential `credentialId`. */
export function nodeUsingCredential(
	type: string,
	credentialId: string,
	parameters: INode['parameters'] = {},
): INode {
	return {
		id: type,
		name: type,
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { phonovationApi: { id: credentialId, name: 'Phonovation' } },
	};
}
