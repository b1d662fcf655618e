import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { CREDENTIAL, isFailure, plainRequest, trimSlash } from '../../transport';

export const description: INodeProperties[] = [];

/**
 * `GET {baseUrl}/health` (no token: the provider documents none). Reports `healthy: false`
 * instead of failing, so a workflow can branch on it.
 */
export async function run(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const credentials = await this.getCredentials(CREDENTIAL);
	const url = `${trimSlash(credentials.baseUrl)}/health`;
	const started = Date.now();
	const response = await plainRequest(this, { method: 'GET', url, timeout: 30_000 });
	const checkedAt = new Date().toISOString();
	const responseTimeMs = Date.now() - started;
	const json = isFailure(response)
		? { healthy: false, status: response.status ?? null, reason: response.code ?? response.message, checkedAt, responseTimeMs }
		: {
				healthy: response.status >= 200 && response.status < 300,
				status: response.status,
				reason: response.status >= 200 && response.status < 300 ? null : `HTTP ${response.status}`,
				checkedAt,
				responseTimeMs,
			};
	return [{ json, pairedItem: { item: itemIndex } }];
}
