import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { INodeTypeDescription } from 'n8n-workflow';

import { Phonovation } from '../../nodes/Phonovation/Phonovation.node';
import { PhonovationTrigger } from '../../nodes/PhonovationTrigger/PhonovationTrigger.node';
import {
	exampleNames,
	exampleWebhookId,
	exampleWorkflowPath,
	loadExample,
	asImported,
	readExample,
	QUESTION_LOG_PLACEHOLDER,
	SENDER_PLACEHOLDER,
} from '../e2e/support/examples';
import { EXAMPLES_DIR, REPO_ROOT } from '../e2e/support/paths';

const PACKAGE_NAME = (
	JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { name: string }
).name;
/** Our node types as n8n registers them, with the versions each supports. */
const OUR_TYPES = new Map(
	[new Phonovation().description, new PhonovationTrigger().description].map(
		(d: INodeTypeDescription) => [`${PACKAGE_NAME}.${d.name}`, ([] as number[]).concat(d.version)],
	),
);
const ACTION = `${PACKAGE_NAME}.phonovation`;
const TRIGGER = `${PACKAGE_NAME}.phonovationTrigger`;
/** n8n makes an AI Agent's tool and human review of the action (usableAsTool), at its versions. */
const ACTIONS = [ACTION, `${ACTION}Tool`, `${ACTION}HitlTool`];
for (const type of ACTIONS.slice(1)) OUR_TYPES.set(type, OUR_TYPES.get(ACTION)!);
/** n8n's own nodes, and its AI nodes, which ship with it. */
const CORE_PREFIXES = ['n8n-nodes-base.', '@n8n/n8n-nodes-langchain.'];

interface ExampleNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters?: Record<string, unknown>;
	credentials?: unknown;
	webhookId?: unknown;
}

const names = exampleNames();
const nodesOf = (name: string) => readExample(name).nodes as unknown as ExampleNode[];

describe('examples/: user-importable example workflows', () => {
	it('has example folders', () => {
		expect(names.length).toBeGreaterThan(0);
	});

	describe.each(names)('examples/%s', (name) => {
		it('has a workflow.json that parses as an n8n workflow', () => {
			expect(existsSync(exampleWorkflowPath(name))).toBe(true);
			const workflow = JSON.parse(readFileSync(exampleWorkflowPath(name), 'utf8')) as Record<
				string,
				unknown
			>;
			expect(typeof workflow.name).toBe('string');
			expect(Array.isArray(workflow.nodes)).toBe(true);
			expect((workflow.nodes as unknown[]).length).toBeGreaterThan(0);
			expect(typeof workflow.connections).toBe('object');
		});

		it('has a README.md', () => {
			const readme = path.join(EXAMPLES_DIR, name, 'README.md');
			expect(existsSync(readme)).toBe(true);
			expect(readFileSync(readme, 'utf8').trim()).not.toBe('');
		});

		it('uses only node types from n8n core or this package, at versions our nodes support', () => {
			const foreign = nodesOf(name)
				.filter(
					(node) =>
						!CORE_PREFIXES.some((prefix) => node.type.startsWith(prefix)) &&
						!OUR_TYPES.has(node.type),
				)
				.map((node) => `${node.name}: ${node.type}`);
			expect(foreign).toEqual([]);
			const badVersions = nodesOf(name)
				.filter(
					(node) =>
						OUR_TYPES.has(node.type) && !OUR_TYPES.get(node.type)!.includes(node.typeVersion),
				)
				.map((node) => `${node.name}: ${node.type} v${node.typeVersion}`);
			expect(badVersions).toEqual([]);
		});

		it('connects only nodes it has', () => {
			const nodeNames = new Set(nodesOf(name).map((node) => node.name));
			const connections = readExample(name).connections as Record<
				string,
				Record<string, Array<Array<{ node: string }>>>
			>;
			// Each node's outputs by connection type ({ main: [...] }): n8n refuses a bare array.
			expect(
				Object.entries(connections)
					.filter(([, byType]) => typeof byType !== 'object' || Array.isArray(byType))
					.map(([node]) => node),
			).toEqual([]);
			const targets = Object.values(connections).flatMap((byType) =>
				Object.values(byType)
					.flat(2)
					.map((c) => c.node),
			);
			expect([...Object.keys(connections), ...targets].filter((n) => !nodeNames.has(n))).toEqual(
				[],
			);
		});

		it('carries nothing a user would have to find and fix: no credentials, webhook ids or local URLs', () => {
			const text = readFileSync(exampleWorkflowPath(name), 'utf8');
			expect(text).not.toMatch(/127\.0\.0\.1|localhost|\/_sim\//);
			expect(
				nodesOf(name)
					.filter((node) => node.credentials !== undefined)
					.map((n) => n.name),
			).toEqual([]);
			// The editor gives the trigger a fresh webhook id on import; a fixed one would be shared by everyone.
			expect(
				nodesOf(name)
					.filter((node) => node.webhookId !== undefined)
					.map((n) => n.name),
			).toEqual([]);
		});

		it('leaves the Sender as the obvious placeholder, which its README explains', () => {
			const senders = nodesOf(name)
				.filter((node) => ACTIONS.includes(node.type) && node.parameters?.from !== undefined)
				.map((node) => node.parameters!.from);
			// Or an expression that needs no change (a re-prompt goes out from the number the person texted).
			expect(
				senders.every((sender) => sender === SENDER_PLACEHOLDER || String(sender).startsWith('=')),
			).toBe(true);
			if (senders.length > 0) {
				expect(readFileSync(path.join(EXAMPLES_DIR, name, 'README.md'), 'utf8')).toContain(
					SENDER_PLACEHOLDER,
				);
			}
		});

		it('takes every Data Table by its exact name, found by a step before it (never "by name")', () => {
			// n8n's "by name" takes the table changed last among all whose name contains the name.
			const rows = nodesOf(name).filter(
				(node) => node.type === 'n8n-nodes-base.dataTable' && node.parameters?.resource === 'row',
			);
			for (const node of rows) {
				const table = node.parameters!.dataTableId as { mode?: string; value?: string };
				const value = table.value ?? '';
				const finder = /\$\('([^']+)'\)\.all\(\)/.exec(value)?.[1];
				const exact = /\.name === '([^']+)'\)/.exec(value)?.[1];
				expect({ node: node.name, mode: table.mode, exact }).toEqual({
					node: node.name,
					mode: 'id',
					exact: expect.any(String),
				});
				const listing = nodesOf(name).find((other) => other.name === finder);
				expect(listing?.parameters).toMatchObject({
					resource: 'table',
					operation: 'list',
					options: { filterName: exact },
				});
			}
		});

		it('creates only tables that a Find step then looks up under the same name', () => {
			const tables = (operation: string, field: (p: Record<string, unknown>) => unknown) =>
				nodesOf(name)
					.filter(
						(node) =>
							node.type === 'n8n-nodes-base.dataTable' && node.parameters?.operation === operation,
					)
					.map((node) => field(node.parameters!));
			const found = tables('list', (p) => (p.options as { filterName?: string }).filterName);
			for (const created of tables('create', (p) => p.tableName)) expect(found).toContain(created);
		});

		it('shows no name beside a placeholder: nothing looks chosen that is not', () => {
			const named = nodesOf(name).flatMap((node) =>
				Object.entries(node.parameters ?? {})
					.filter(([, value]) => {
						const picked = value as { value?: unknown; cachedResultName?: unknown } | null;
						return String(picked?.value).startsWith('YOUR_') && picked?.cachedResultName;
					})
					.map(([field]) => `${node.name}: ${field}`),
			);
			expect(named).toEqual([]);
		});

		it('leaves the Question Log as the obvious placeholder, which its README explains, or is the log itself', () => {
			const logs = nodesOf(name)
				.filter((node) => ACTIONS.includes(node.type) && node.parameters?.questionLog !== undefined)
				.map((node) => (node.parameters!.questionLog as { value?: unknown }).value);
			// The inbox is the Question Log: its Deliver nodes ask the workflow they are in.
			const expected = name === 'inbox' ? SELF : QUESTION_LOG_PLACEHOLDER;
			expect(logs.every((log) => log === expected)).toBe(true);
			if (logs.length > 0 && expected === QUESTION_LOG_PLACEHOLDER) {
				expect(readFileSync(path.join(EXAMPLES_DIR, name, 'README.md'), 'utf8')).toContain(
					QUESTION_LOG_PLACEHOLDER,
				);
			}
		});
	});

	it('examples/README.md lists every example folder', () => {
		const index = readFileSync(path.join(EXAMPLES_DIR, 'README.md'), 'utf8');
		expect(names.filter((name) => !index.includes(`](${name}/)`))).toEqual([]);
	});
});

/** How the inbox names itself as its Deliver nodes' Question Log. */
const SELF = '={{ $workflow.id }}';

describe('loadExample: an example as the e2e suite and npm start import it', () => {
	it('swaps the placeholder Sender for one the simulator approves and leaves the rest alone', () => {
		const loaded = loadExample('inbox');
		const senders = (loaded.nodes as unknown as ExampleNode[])
			.filter((n) => n.type === ACTION && !String(n.parameters!.from ?? '=').startsWith('='))
			.map((n) => n.parameters!.from);
		expect(senders.length).toBeGreaterThan(0);
		expect(new Set(senders)).toEqual(new Set(['Phonovation']));
		expect(loaded.connections).toEqual(readExample('inbox').connections);
		expect(
			loadExample('inbox', { sender: 'FreeText' }).nodes.some(
				(n) => (n.parameters as { from?: string })?.from === 'FreeText',
			),
		).toBe(true);
		// Also in the AI Agent's tool and human review that n8n makes of our node.
		expect(
			(loadExample('ai-human-review', { sender: '353870000123' }).nodes as unknown as ExampleNode[])
				.filter((n) => n.parameters?.from !== undefined)
				.map((n) => [n.name, n.parameters!.from]),
		).toEqual([
			['Human Review', '353870000123'],
			['Send SMS', '353870000123'],
		]);
	});

	it('points every Question Log placeholder at the imported inbox when given its id; the inbox keeps asking itself', () => {
		const logs = (name: string, questionLog?: string) =>
			(loadExample(name, { questionLog }).nodes as unknown as ExampleNode[])
				.filter((n) => n.parameters?.questionLog !== undefined)
				.map((n) => n.parameters!.questionLog);
		for (const name of ['appointment-confirmation', 'delivery-fallback', 'ai-human-review']) {
			expect(logs(name, '42')).toEqual([{ __rl: true, mode: 'id', value: '42' }]);
			expect(logs(name)).toEqual([expect.objectContaining({ value: QUESTION_LOG_PLACEHOLDER })]);
		}
		// The inbox delivers replies and receipts: two nodes, both asking the workflow they are in.
		expect(logs('inbox', '42')).toEqual([
			{ __rl: true, mode: 'id', value: SELF },
			{ __rl: true, mode: 'id', value: SELF },
		]);
	});

	it("turns the inbox's keyword replies on unless told not to; the file keeps them off", () => {
		const keywordReplies = (workflow: { nodes: unknown[] }) =>
			JSON.stringify(workflow.nodes).match(/"name":"keywordReplies","value":(true|false)/)?.[1];
		expect(keywordReplies(readExample('inbox'))).toBe('false');
		expect(keywordReplies(loadExample('inbox'))).toBe('true');
		expect(keywordReplies(loadExample('inbox', { keywordReplies: false }))).toBe('false');
	});

	it("gives each relay URL the same webhook id on every load, different per example and node (a Webhook node's path too)", () => {
		const relayUrl = (loadExample('inbox').nodes as unknown as ExampleNode[]).find(
			(n) => n.type === 'n8n-nodes-base.webhook',
		)!;
		expect([relayUrl.webhookId, relayUrl.parameters?.path]).toEqual([
			exampleWebhookId('inbox', relayUrl.name),
			exampleWebhookId('inbox', relayUrl.name),
		]);
		expect(relayUrl.webhookId).toMatch(
			/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
		);
		expect(exampleWebhookId('inbox', 'Other')).not.toBe(relayUrl.webhookId);
		expect(exampleWebhookId('other-example', relayUrl.name)).not.toBe(relayUrl.webhookId);
		// A Phonovation Trigger (a workflow of the user's own) gets one the same way.
		const trigger = asImported(
			{ ...readExample('inbox'), nodes: [{ name: 'Mine', type: TRIGGER, parameters: {} }] },
			'inbox',
		).nodes[0] as unknown as ExampleNode;
		expect(trigger.webhookId).toBe(exampleWebhookId('inbox', 'Mine'));
	});
});
