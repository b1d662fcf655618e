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

/** An If node that goes on only when `isLast` (an expression) says this run's text is the burst's last. */
const mineTheLast = (isLast: string): Node =>
	node('Mine the Last?', 'n8n-nodes-base.if', 2.2, {
		conditions: {
			options: { caseSensitive: true, leftValue: '', typeValidation: 'loose', version: 2 },
			conditions: [
				{
					id: randomUUID(),
					leftValue: isLast,
					rightValue: '',
					operator: { type: 'boolean', operation: 'true', singleValue: true },
				},
			],
			combinator: 'and',
		},
		options: {},
	});

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
		mineTheLast("={{ String($json.texts.at(-1)).startsWith($execution.id + '|') }}"),
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

/** A Data Table node of n8n 2.41 (typeVersion 1.1) on the table `tableId`. */
const dataTable = (name: string, tableId: string, parameters: object): Node =>
	node(name, 'n8n-nodes-base.dataTable', 1.1, {
		resource: 'row',
		dataTableId: { __rl: true, mode: 'id', value: tableId },
		...parameters,
	});

const column = (id: string) => ({
	id,
	displayName: id,
	required: false,
	defaultMatch: false,
	display: true,
	type: 'string',
	canBeUsedToMatch: true,
});

const theirRows = {
	matchType: 'allConditions',
	filters: { conditions: [{ keyName: 'phone', condition: 'eq', keyValue: `={{ ${FROM} }}` }] },
};

/**
 * The same debounce with an n8n Data Table (`phone`, `text`, `run`) where the templates use Redis:
 * what one execution per text costs when its steps are n8n's own Data Table nodes, inline. The
 * floor an inbox reshaped that way could reach (no signature check, no guard of ours either).
 */
export function dataTableDebounce(settings: {
	path: string;
	quietSeconds: number;
	chatUrl: string;
	sender: string;
	tableId: string;
}): WorkflowJson {
	const { tableId } = settings;
	const relayIn = { ...webhook(settings.path, 'Relay In'), typeVersion: 2.1 };
	const workflow = handBuiltDebounce({ ...settings, redis: { id: '', name: '' } });
	const [, , wait, , , , model, send] = workflow.nodes;
	return chain('Bench: hand-built debounce on a Data Table', [
		relayIn,
		dataTable('Add to Their Texts', tableId, {
			operation: 'insert',
			columns: {
				mappingMode: 'defineBelow',
				value: {
					phone: `={{ ${FROM} }}`,
					text: "={{ $json.body['SMS-Content'] }}",
					run: '={{ $execution.id }}',
				},
				matchingColumns: [],
				schema: ['phone', 'text', 'run'].map(column),
				attemptToConvertTypes: false,
				convertFieldsToString: false,
			},
			options: {},
		}),
		wait,
		{
			...dataTable('Read Their Texts', tableId, {
				operation: 'get',
				...theirRows,
				returnAll: true,
				orderBy: true,
				orderByColumn: 'id',
				orderByDirection: 'ASC',
			}),
			alwaysOutputData: true,
		},
		{
			...mineTheLast("={{ $('Read Their Texts').all().at(-1)?.json.run === $execution.id }}"),
			executeOnce: true,
		},
		{
			...dataTable('Clear Their Texts', tableId, { operation: 'deleteRows', ...theirRows }),
			alwaysOutputData: true,
			executeOnce: true,
		},
		{
			...model,
			parameters: {
				...(model.parameters as object),
				jsonBody: `={{ JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'You answer our customers by SMS.' }, { role: 'user', content: $('Read Their Texts').all().map((row) => row.json.text).join('\\n') }] }) }}`,
			},
		},
		send,
	]);
}
