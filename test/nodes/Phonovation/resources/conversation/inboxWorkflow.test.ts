import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { IDataObject } from 'n8n-workflow';

import {
	INBOX_PROTOCOL,
	protocolMismatch,
} from '../../../../../nodes/Phonovation/resources/conversation/inboxWorkflow';
import { EXAMPLES_DIR } from '../../../../e2e/support/paths';

interface WorkflowNode {
	name: string;
	parameters: Record<string, unknown>;
}
type Connections = Record<string, { main?: Array<Array<{ node: string }>> }>;

const inbox = JSON.parse(
	readFileSync(path.join(EXAMPLES_DIR, 'inbox', 'workflow.json'), 'utf8'),
) as {
	nodes: WorkflowNode[];
	connections: Connections;
};

/** The nodes a call to the log can end at: reached from its entry, with nothing after them. */
function lastNodesOfTheLog(): string[] {
	const seen = new Set<string>();
	const last = new Set<string>();
	const next = ['When Asked or Answered'];
	while (next.length) {
		const name = next.pop()!;
		if (seen.has(name)) continue;
		seen.add(name);
		const children = (inbox.connections[name]?.main ?? []).flat().map((to) => to.node);
		if (children.length === 0) last.add(name);
		next.push(...children);
	}
	return [...last];
}

describe('the inbox protocol: the version the inbox and our nodes agree on', () => {
	it('the shipped inbox answers every call through one node that marks the protocol this package speaks', () => {
		const answer = `Answer (Inbox Protocol ${INBOX_PROTOCOL})`;
		expect(lastNodesOfTheLog()).toEqual([answer]);
		const node = inbox.nodes.find((candidate) => candidate.name === answer)!;
		expect(String(node.parameters.jsonOutput)).toMatch(
			new RegExp(`inboxProtocol: ${INBOX_PROTOCOL} \\} \\}\\}$`),
		);
	});

	it.each<[string, IDataObject[], RegExp | null]>([
		[
			'every item in this protocol',
			[{ a: 1, inboxProtocol: INBOX_PROTOCOL }, { inboxProtocol: INBOX_PROTOCOL }],
			null,
		],
		['an answer without items (no inbox answers so)', [], /an inbox of an earlier/],
		[
			'items without the mark: an inbox from before the handshake, or another log',
			[{ reference: 'r' }],
			/an inbox of an earlier/,
		],
		[
			'one item unmarked among marked ones',
			[{ inboxProtocol: INBOX_PROTOCOL }, {}],
			/an inbox of an earlier/,
		],
		['an earlier protocol', [{ inboxProtocol: INBOX_PROTOCOL - 1 }], /an inbox of an earlier/],
		['the protocol as text', [{ inboxProtocol: String(INBOX_PROTOCOL) }], /an inbox of an earlier/],
		[
			'a newer protocol',
			[{ inboxProtocol: INBOX_PROTOCOL + 1 }],
			/an inbox of a newer n8n-nodes-phonovation .*update the package/,
		],
	])('%s', (_case, answer, expected) => {
		const said = protocolMismatch(answer);
		if (expected === null) expect(said).toBeNull();
		else expect(said).toMatch(expected);
	});
});
