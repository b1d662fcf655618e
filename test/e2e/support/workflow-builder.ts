import { randomUUID } from 'node:crypto';

import type { WorkflowJson } from './n8n-client';
import { TYPES } from './package-types';

type Node = WorkflowJson['nodes'][number];

/** n8n's Manual Trigger ("Execute workflow" in the editor). */
export function manualTrigger(name = 'Manual Trigger'): Node {
	return {
		id: randomUUID(),
		name,
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
}

/** n8n's Webhook node taking POSTs on `path` and answering at once (its production URL: n8n.webhookUrl(path)). */
export function webhook(path: string, name = 'Webhook'): Node {
	return {
		id: randomUUID(),
		name,
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: randomUUID(),
		parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
	};
}

/** A workflow's trigger swapped for such a Webhook on `path`, its name, id and place kept: many runs at once. */
export const asWebhook = (node: Node, path: string): Node => ({
	...webhook(path, node.name),
	id: node.id,
	position: node.position,
});

/** n8n's Code node running JavaScript once for all items (in n8n's task runner). */
export function code(name: string, jsCode: string): Node {
	return {
		id: randomUUID(),
		name,
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		position: [220, 0],
		parameters: { jsCode },
	};
}

/** The Phonovation action node with the given parameters (resource, operation, fields, options). */
export function phonovation(name: string, parameters: Record<string, unknown>): Node {
	return {
		id: randomUUID(),
		name,
		type: TYPES.action,
		typeVersion: 1,
		position: [440, 0],
		parameters,
	};
}

/** The Phonovation Trigger with a fixed webhookId, so its production URL is known before import. */
export function phonovationTrigger(
	name: string,
	parameters: Record<string, unknown>,
	webhookId = randomUUID(),
): Node {
	return {
		id: randomUUID(),
		name,
		type: TYPES.trigger,
		typeVersion: 1.1,
		position: [0, 0],
		parameters,
		webhookId,
	};
}

/** A workflow whose nodes run one after the other, in the order given. */
export function chain(
	name: string,
	nodes: Node[],
	settings: Record<string, unknown> = {},
): WorkflowJson {
	const connections: Record<string, unknown> = {};
	for (let i = 0; i + 1 < nodes.length; i++) {
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	}
	return { name, nodes, connections, settings: { executionOrder: 'v1', ...settings } };
}
