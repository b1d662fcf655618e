import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { eachItem } from '../../eachItem';
import { asText } from '../../../shared/values';
import { resumeTarget } from './replyProof';

/**
 * Posting to a run that waits at its node's own signed resume URL (Send and Wait for Reply or for
 * Delivery), as Deliver Reply and Deliver Receipt do: only this n8n's resume URLs are posted to,
 * and only the waiting node's own `resumed: true` counts as success.
 */

/** A trigger item handed over in a JSON parameter (n8n may hand it over as text). */
function itemOfParameter(value: unknown): IDataObject {
	if (typeof value === 'string') {
		try {
			return (JSON.parse(value) ?? {}) as IDataObject;
		} catch {
			return {};
		}
	}
	return value && typeof value === 'object' ? (value as IDataObject) : {};
}

/** This n8n's waiting-webhook address (`…/webhook-waiting/`), from the run's own resume URL. */
export function waitingBaseOf(ctx: IExecuteFunctions): string {
	return asText(ctx.getWorkflowDataProxy(0).$execution.resumeUrl).replace(/\/[^/]+$/, '/');
}

/** A node's signed resume URL on this n8n (`<waiting base>/<execution>/<node>?signature=…`). */
export const isOurResumeUrl = (url: string, waitingBase: string) =>
	resumeTarget(url) !== null && waitingBase !== '/' && url.startsWith(waitingBase);

export type Posted =
	| { state: 'resumed'; answer: unknown }
	| { state: 'refused'; status: number; reason: string; reprompt?: string }
	| { state: 'notWaiting'; status: number }
	| { state: 'transient'; said: string };

/** One delivery to one waiting run, read strictly. */
async function post(ctx: IExecuteFunctions, url: string, body: IDataObject): Promise<Posted> {
	let response;
	try {
		response = await ctx.helpers.httpRequest({
			method: 'POST',
			url,
			body,
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: 30_000,
		});
	} catch (error) {
		return { state: 'transient', said: (error as Error).message };
	}
	const status = response.statusCode as number;
	const answer = (
		response.body && typeof response.body === 'object' ? response.body : {}
	) as IDataObject;
	if (status === 200 && answer.resumed === true) return { state: 'resumed', answer: answer.answer };
	if (answer.resumed === false && typeof answer.reason === 'string') {
		const reprompt = typeof answer.reprompt === 'string' ? answer.reprompt : undefined;
		return { state: 'refused', status, reason: answer.reason, reprompt };
	}
	const said = typeof answer.message === 'string' ? answer.message : `n8n answered ${status}`;
	// The run is not saved as waiting yet, or n8n failed: delivering again shortly may work.
	if (status >= 500 || (status === 409 && /running/i.test(said)))
		return { state: 'transient', said };
	// Finished, timed out, waiting at another node, unknown: this wait is over.
	return { state: 'notWaiting', status };
}

/**
 * Posts until the run answers for itself, pausing `pausesMs` between tries while n8n cannot take
 * it yet; still unable, it throws, so the inbox's Retry On Fail (or its error) sees it.
 */
export async function postToWaitingRun(
	ctx: IExecuteFunctions,
	itemIndex: number,
	url: string,
	body: IDataObject,
	retry: { pausesMs: readonly number[]; failure: string },
): Promise<Exclude<Posted, { state: 'transient' }>> {
	const { pausesMs } = retry;
	let said = '';
	for (let attempt = 0; attempt <= pausesMs.length; attempt++) {
		if (attempt > 0) await sleep(pausesMs[attempt - 1]);
		const posted = await post(ctx, url, body);
		if (posted.state !== 'transient') return posted;
		said = posted.said;
	}
	throw new NodeOperationError(ctx.getNode(), `${retry.failure}: ${said}`, {
		itemIndex,
		description: `Tried ${pausesMs.length + 1} times. Set Retry On Fail on this node to deliver it again later: a run resumes only once, so a repeat is harmless.`,
	});
}

/** What a Deliver operation takes: the trigger's item of which events, in which parameter. */
interface Handing {
	/** The operation's name, for the AI tool refusal. */
	operation: string;
	/** Why no AI agent may use it. */
	notATool: string;
	/** The parameter (and its label) holding the trigger's item. */
	parameter: string;
	label: string;
	/** The trigger events it takes, and their names in the trigger. */
	events: Record<string, string>;
	/** The trigger node's name in the example expression of the error. */
	triggerName: string;
}

export interface Handed {
	itemIndex: number;
	/** The trigger's item. */
	item: IDataObject;
	/** The item going on, with what became of it. */
	out(result: IDataObject): INodeExecutionData[];
	secret: string;
	/** This n8n's waiting-webhook address: a row pointing anywhere else gets neither item nor proof. */
	waitingBase: string;
}

/**
 * Deliver Reply and Deliver Receipt: never an AI Agent's tool (an agent must not make up what a
 * person or the provider said), each input item's trigger item checked to be one of `events`
 * (an error naming the field and the item otherwise), handed to `deliver` with the Relay Secret.
 */
export async function deliverEach(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	handing: Handing,
	deliver: (handed: Handed) => Promise<INodeExecutionData[]>,
): Promise<INodeExecutionData[]> {
	if (ctx.getNode().type.endsWith('Tool'))
		throw new NodeOperationError(
			ctx.getNode(),
			`${handing.operation} cannot be used as an AI tool: ${handing.notATool}`,
		);
	const secret = asText((await ctx.getCredentials('phonovationApi')).relaySecret);
	const waitingBase = waitingBaseOf(ctx);
	const { label } = handing;
	return await eachItem(ctx, items, async (itemIndex) => {
		const item = itemOfParameter(ctx.getNodeParameter(handing.parameter, itemIndex, {}));
		const event = asText(item.event);
		if (!Object.hasOwn(handing.events, event)) {
			const names = Object.values(handing.events).join(' or ');
			throw new NodeOperationError(
				ctx.getNode(),
				`${label}: item ${itemIndex} is not a Phonovation Trigger ${names} item (event "${event}"); set ${label} to the trigger's item, e.g. {{ $('${handing.triggerName}').item.json }}`,
				{ itemIndex },
			);
		}
		const out = (result: IDataObject): INodeExecutionData[] => [
			{ json: { ...item, ...result }, pairedItem: { item: itemIndex } },
		];
		return await deliver({ itemIndex, item, out, secret, waitingBase });
	});
}
