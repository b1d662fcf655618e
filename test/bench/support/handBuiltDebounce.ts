// The SMS assistant users build by hand (as the shared n8n templates do): Webhook, Redis list, Wait, "mine the last?".
import { randomUUID } from 'node:crypto';

import type { WorkflowJson } from '../../e2e/support/n8n-client';
import { chain, phonovation, webhook } from '../../e2e/support/workflow-builder';

type Node = WorkflowJson['nodes'][number];

const node = (name: string, type: string, typeVersion: number, parameters: object): Node => ({
	id: randomUUID(),
	name,
	type,
	typeVersion,
	position: [0, 0],
	parameters: parameters as Node['parameters'],
});

const redis = (name: string, parameters: object, credential: { id: string; name: string }) => ({
	...node(name, 'n8n-nodes-base.redis', 1, parameters),
	credentials: { redis: credential },
});

const FROM = "$('Relay In').first().json.body['SMS-From']";

/**
 * One execution per text: the relay's text pushed onto the sender's Redis list under this
 * execution's id, a Wait of the quiet time, then only the run whose text is still the list's last
 * asks the chat model (an HTTP Request, the simulator's OpenAI-compatible endpoint) with all the
 * burst's texts and texts the answer back (our Send, from the longcode). No signature check, no
 * opt-out, replay or limit guard: the baseline a user would start from.
 */
export function handBuiltDebounce(settings: {
	path: string;
	quietSeconds: number;
	chatUrl: string;
	sender: string;
	redis: { id: string; name: string };
}): WorkflowJson {
	const relayIn = { ...webhook(settings.path, 'Relay In'), typeVersion: 2.1 };
	const key = `=storm:{{ ${FROM} }}`;
	return chain('Bench: hand-built debounce', [
		relayIn,
		redis(
			'Add to Their List',
			{
				operation: 'push',
				list: key,
				messageData: "={{ $execution.id }}|{{ $json.body['SMS-Content'] }}",
				tail: true,
			},
			settings.redis,
		),
		node('Quiet Time', 'n8n-nodes-base.wait', 1.1, {
			amount: settings.quietSeconds,
			unit: 'seconds',
		}),
		redis(
			'Read Their List',
			{ operation: 'get', propertyName: 'texts', key, keyType: 'list', options: {} },
			settings.redis,
		),
		node('Mine the Last?', 'n8n-nodes-base.if', 2.2, {
			conditions: {
				options: { caseSensitive: true, leftValue: '', typeValidation: 'loose', version: 2 },
				conditions: [
					{
						id: randomUUID(),
						leftValue: "={{ String($json.texts.at(-1)).startsWith($execution.id + '|') }}",
						rightValue: '',
						operator: { type: 'boolean', operation: 'true', singleValue: true },
					},
				],
				combinator: 'and',
			},
			options: {},
		}),
		redis('Clear Their List', { operation: 'delete', key }, settings.redis),
		node('Ask the Model', 'n8n-nodes-base.httpRequest', 4.2, {
			method: 'POST',
			url: settings.chatUrl,
			sendBody: true,
			specifyBody: 'json',
			jsonBody: `={{ JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'You answer our customers by SMS.' }, { role: 'user', content: $('Read Their List').first().json.texts.map((t) => t.split('|').slice(1).join('|')).join('\\n') }] }) }}`,
			options: {},
		}),
		phonovation('Text Them Back', {
			resource: 'campaign',
			operation: 'send',
			from: settings.sender,
			text: '={{ $json.choices[0].message.content }}',
			recipients: `={{ ${FROM} }}`,
			options: { campaignName: 'Assistant' },
		}),
	]);
}
