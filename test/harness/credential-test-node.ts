import type { ICredentialType, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

/**
 * What n8n's CredentialsTester builds to run a credential's `test.request` (n8n
 * `packages/cli/src/services/credentials-tester.service.ts`): a declarative node whose one
 * property routes that request, so n8n-core's RoutingNode sends it with the credential's
 * authentication. Run it in the engine to see the Test button's effect.
 */
export class CredentialTestNode implements INodeType {
	description: INodeTypeDescription;

	constructor(credential: ICredentialType) {
		if (!credential.test) throw new Error(`${credential.name} declares no test request`);
		this.description = {
			displayName: 'Credential Test',
			name: 'credentialTest',
			group: ['transform'],
			version: 1,
			description: 'Test-only node',
			defaults: { name: 'Credential Test' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: credential.name, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: credential.test.request },
					default: '',
				},
			],
		};
	}
}
