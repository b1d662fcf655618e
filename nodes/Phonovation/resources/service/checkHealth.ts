// Service Check Health: `GET /health`, reported as healthy or not instead of failing the item.
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { secureEndpoint } from '../../../shared/endpoints';
import { CREDENTIAL, isFailure, plainRequest } from '../../transport/request';
import { eachItem } from '../../eachItem';
import type { Listing } from '../../resourceFields';

/** Check Health has no parameters of its own. */
export const description: INodeProperties[] = [];

/** One health report per input item. */
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await eachItem(this, items, async (itemIndex) => await checkOnce(this, itemIndex));
}

/**
 * `GET {baseUrl}/health` (no token: the provider documents none). Reports `healthy: false`
 * instead of failing, so a workflow can branch on it.
 */
async function checkOnce(ctx: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const credentials = await ctx.getCredentials(CREDENTIAL);
	// An unsafe Base URL is a configuration error, not an unhealthy service: it fails the item.
	const url = secureEndpoint(credentials, 'baseUrl', '/health');
	const started = Date.now();
	const response = await plainRequest(ctx, { method: 'GET', url, timeout: 30_000 });
	const checkedAt = new Date().toISOString();
	const responseTimeMs = Date.now() - started;
	const json = isFailure(response)
		? {
				healthy: false,
				status: response.status ?? null,
				reason: response.code ?? response.message,
				checkedAt,
				responseTimeMs,
			}
		: {
				healthy: response.status >= 200 && response.status < 300,
				status: response.status,
				reason: response.status >= 200 && response.status < 300 ? null : `HTTP ${response.status}`,
				checkedAt,
				responseTimeMs,
			};
	return [{ json, pairedItem: { item: itemIndex } }];
}

/** How the Operation picker lists it. */
export const listing: Listing = [
	'Check Health',
	"Check that the provider's API is up",
	'Check service health',
	'docs/campaigns.md#service-check-health',
];
