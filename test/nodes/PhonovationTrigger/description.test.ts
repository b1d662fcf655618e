import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { IHookFunctions, INode, INodeProperties, INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { PhonovationTrigger } from '../../../nodes/PhonovationTrigger/PhonovationTrigger.node';

const NODE_DIR = path.join(__dirname, '../../../nodes/PhonovationTrigger');

describe('Phonovation Trigger description', () => {
	const trigger = new PhonovationTrigger();
	const { description } = trigger;
	const property = (name: string) =>
		description.properties.find((p) => p.name === name) as INodeProperties;
	const shown = (name: string, parameters: INodeParameters) =>
		NodeHelpers.displayParameter(parameters, property(name), null, description, parameters);

	it('is offered as a trigger with no inputs, not as an AI tool, and asks for the Phonovation credential', () => {
		expect(description.displayName).toBe('Phonovation Trigger');
		expect(description.group).toEqual(['trigger']);
		expect(description.inputs).toEqual([]);
		expect(description.usableAsTool).toBeUndefined();
		expect(description.credentials?.map((c) => [c.name, c.required])).toEqual([
			['phonovationApi', true],
		]);
	});

	it('shows a Production URL ending in /phonovation that accepts POST', () => {
		const [webhook] = description.webhooks!;
		const node = { webhookId: 'abc', parameters: {} } as unknown as INode;
		expect(
			NodeHelpers.getNodeWebhookUrl(
				'https://n8n.example/webhook',
				'wf',
				node,
				String(webhook.path),
				false,
			),
		).toBe('https://n8n.example/webhook/abc/phonovation');
		expect(webhook.httpMethod).toBe('POST');
	});

	it('starts a new trigger on replies, opt-outs and receipts, with no options set', () => {
		const parameters = NodeHelpers.getNodeParameters(
			description.properties,
			{},
			true,
			false,
			null,
			description,
		);
		expect(parameters).toMatchObject({
			events: ['inbound', 'optOut', 'deliveryReceipt'],
			options: {},
		});
	});

	it('lists the five events by name, alphabetically', () => {
		const options = property('events').options as Array<{ name: string }>;
		expect(options.map((o) => o.name)).toEqual([
			'Delivery Receipt',
			'Inbound Message',
			'Opt-In',
			'Opt-Out',
			'Processing Result',
		]);
	});

	it('offers six options with safe values once added; the old URL token is marked deprecated and masked', () => {
		const options = property('options').options as INodeProperties[];
		expect(options.map((o) => [o.displayName, o.default])).toEqual([
			['Accept Receipts Without Notify ID', false],
			['Include Raw Fields', false],
			['Keywords', ''],
			['STOP Replies as Opt-Outs', true],
			['URL Token (Deprecated)', ''],
			['Verify Signature', true],
		]);
		expect(options.find((o) => o.displayName.startsWith('URL Token'))!.typeOptions?.password).toBe(
			true,
		);
	});

	it('asks to move a URL token still set in the node to the credential, only while it is set', () => {
		expect(shown('legacyTokenNotice', { options: { token: 'still-here' } })).toBe(true);
		expect(shown('legacyTokenNotice', { options: { token: '' } })).toBe(false);
		expect(shown('legacyTokenNotice', { options: {} })).toBe(false);
		expect(property('legacyTokenNotice').displayName).toMatch(/credential/);
	});

	it('tells the user to email the Production URL to Phonovation support', () => {
		const notice = property('notice');
		expect(notice.type).toBe('notice');
		expect(notice.displayName).toMatch(/Production URL/);
		expect(notice.displayName).toMatch(/support@phonovation\.com/);
		expect(shown('notice', {})).toBe(true);
	});

	it('warns only when signature verification is turned off', () => {
		expect(shown('unverifiedNotice', { options: { verifySignature: false } })).toBe(true);
		expect(shown('unverifiedNotice', { options: { verifySignature: true } })).toBe(false);
		expect(shown('unverifiedNotice', { options: {} })).toBe(false);
	});

	it("explains the credential's URL token when processing results are selected", () => {
		expect(property('processingResultNotice').displayName).toMatch(
			/URL Token in the Phonovation credential/,
		);
		expect(shown('processingResultNotice', { events: ['inbound', 'processingResult'] })).toBe(true);
		expect(shown('processingResultNotice', { events: ['inbound', 'optOut'] })).toBe(false);
	});

	it('has webhook lifecycle methods that succeed without registering anything', async () => {
		const hooks = trigger.webhookMethods.default;
		const context = {} as IHookFunctions;
		await expect(hooks.checkExists.call(context)).resolves.toBe(true);
		await expect(hooks.create.call(context)).resolves.toBe(true);
		await expect(hooks.delete.call(context)).resolves.toBe(true);
	});

	it('points at icons that exist', () => {
		const icon = description.icon as { light: string; dark: string };
		for (const file of [icon.light, icon.dark]) {
			expect(existsSync(path.join(NODE_DIR, file.replace(/^file:/, '')))).toBe(true);
		}
		expect(icon.light).not.toBe(icon.dark);
	});

	it('ships a codex file with the category and documentation links', () => {
		const codex = JSON.parse(
			readFileSync(path.join(NODE_DIR, 'PhonovationTrigger.node.json'), 'utf8'),
		);
		expect(codex).toEqual({
			node: 'n8n-nodes-phonovation.phonovationTrigger',
			nodeVersion: '1.0',
			codexVersion: '1.0',
			categories: ['Communication'],
			resources: {
				credentialDocumentation: [
					{ url: 'https://github.com/n8n-nodes-phonovation/n8n-nodes-phonovation#credentials' },
				],
				primaryDocumentation: [
					{
						url: 'https://github.com/n8n-nodes-phonovation/n8n-nodes-phonovation/blob/main/docs/trigger-and-security.md',
					},
				],
			},
		});
	});
});
