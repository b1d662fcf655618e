import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asText } from '../../../shared/values';
import { eachItem } from '../../eachItem';
import { deliverReplyDescription } from './fields';
import { type DeliveredReply, executionOfResumeUrl, replyProof } from './replyProof';

export const description = deliverReplyDescription;

const orNull = (value: unknown) =>
	value === null || value === undefined || value === '' ? null : asText(value);

/** The Reply parameter as an object (n8n may hand a JSON parameter over as text). */
function replyItem(value: unknown): IDataObject {
	if (typeof value === 'string') {
		try {
			return (JSON.parse(value) ?? {}) as IDataObject;
		} catch {
			return {};
		}
	}
	return value && typeof value === 'object' ? (value as IDataObject) : {};
}

/** The Relay Secret the proof is keyed with (the request itself goes to n8n, with no provider login). */
async function relaySecret(ctx: IExecuteFunctions): Promise<string> {
	const credentials = await ctx.getCredentials('phonovationApi');
	return asText(credentials.relaySecret);
}

/**
 * Posts a verified reply, with its proof, to the resume URL of the run that asked the question.
 * `resumed: false` (another number, not an answer, a run no longer waiting) is an output, not an
 * error: the reply can then go on as an ordinary inbound message. A run still running (409 from
 * n8n) or an unreachable n8n is an error, so Retry On Fail delivers it again.
 */
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	// An AI Agent must never be able to make up an answer to a question a person was asked.
	if (this.getNode().type.endsWith('Tool')) {
		throw new NodeOperationError(
			this.getNode(),
			'Deliver Reply cannot be used as an AI tool: only a verified reply may answer a question',
		);
	}
	return await eachItem(this, items, async (itemIndex) => {
		const url = asText(this.getNodeParameter('resumeUrl', itemIndex, '')).trim();
		const executionId = executionOfResumeUrl(url);
		if (!executionId || !/[?&]signature=/.test(url)) {
			throw new NodeOperationError(
				this.getNode(),
				`Resume URL: "${url.slice(0, 80)}" is not an n8n resume URL ($execution.resumeUrl)`,
				{ itemIndex },
			);
		}
		const item = replyItem(this.getNodeParameter('reply', itemIndex, {}));
		if (item.event !== 'inbound' && item.event !== 'optOut') {
			throw new NodeOperationError(
				this.getNode(),
				`Reply: item ${itemIndex} is not a Phonovation Trigger Inbound Message or Opt-Out item (event "${asText(item.event)}"); set Reply to the trigger's item, e.g. {{ $('On Reply').item.json }}`,
				{ itemIndex },
			);
		}
		if (item.verified !== true) {
			return [
				{
					json: { resumed: false, reason: 'the reply was not verified by the Phonovation Trigger' },
					pairedItem: { item: itemIndex },
				},
			];
		}
		const unverified = (item.unverified ?? {}) as IDataObject;
		const reply: DeliveredReply = {
			from: asText(item.from),
			text: asText(item.text),
			receivedAt: orNull(unverified.receivedAt),
			optedOut: item.event === 'optOut',
			notifyId: orNull(unverified.notifyId),
		};
		const proof = replyProof(executionId, reply, await relaySecret(this));
		const response = await this.helpers.httpRequest({
			method: 'POST',
			url,
			body: { ...reply, proof },
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		});
		const status = response.statusCode as number;
		const body = (
			response.body && typeof response.body === 'object' ? response.body : {}
		) as IDataObject;
		// n8n answers 200 once the run resumes (its own body, not ours); every refusal of ours says resumed: false.
		if (status === 200 && body.resumed !== false)
			return [{ json: { resumed: true, executionId }, pairedItem: { item: itemIndex } }];
		const said =
			typeof body.reason === 'string'
				? body.reason
				: typeof body.message === 'string'
					? body.message
					: `n8n answered ${status}`;
		// The run is not saved as waiting yet, or n8n failed: delivering again later may work.
		if (
			status >= 500 ||
			(status === 409 && /running/i.test(said) && typeof body.reason !== 'string')
		) {
			throw new NodeOperationError(
				this.getNode(),
				`The asking run could not take the reply: ${said}`,
				{
					itemIndex,
					description:
						'Set Retry On Fail on this node to deliver it again: a run resumes only once, so a repeat is harmless.',
				},
			);
		}
		return [
			{
				json: { resumed: false, executionId, status, reason: said },
				pairedItem: { item: itemIndex },
			},
		];
	});
}
