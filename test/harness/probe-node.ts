import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

/**
 * A minimal authenticated node for proving the harness before the product nodes exist:
 * one `GET {baseUrl}/api/v2/senderlist` per input item through httpRequestWithAuthentication.
 */
export class AuthProbe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Auth Probe',
		name: 'authProbe',
		group: ['transform'],
		version: 1,
		description: 'Test-only node',
		defaults: { name: 'Auth Probe' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'phonovationApi', required: true }],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const credentials = await this.getCredentials('phonovationApi');
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < this.getInputData().length; i++) {
			const response = await this.helpers.httpRequestWithAuthentication.call(
				this,
				'phonovationApi',
				{
					method: 'GET',
					url: `${String(credentials.baseUrl)}/api/v2/senderlist`,
					json: true,
				},
			);
			out.push({ json: { senders: response }, pairedItem: { item: i } });
		}
		return [out];
	}
}
