import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { IHookFunctions, INodeProperties, INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { PhonovationTrigger } from '../../../nodes/PhonovationTrigger/PhonovationTrigger.node';

const NODE_DIR = path.join(__dirname, '../../../nodes/PhonovationTrigger');

describe('Phonovation Trigger description', () => {
	const trigger = new PhonovationTrigger();
	const { description } = trigger;
	const property = (name: string) => description.properties.find((p) => p.name === name) as INodeProperties;
	const shown = (name: string, parameters: INodeParameters) =>
		NodeHelpers.displayParameter(parameters, property(name), null, description, parameters);

	it('is a trigger with no inputs, not an AI tool, using the phonovationApi credential', () => {
		expect(description).toMatchObject({
			name: 'phonovationTrigger',
			displayName: 'Phonovation Trigger',
			group: ['trigger'],
			inputs: [],
			credentials: [{ name: 'phonovationApi', required: true }],
			subtitle: '={{$parameter["events"].join(", ")}}',
		});
		expect(description.usableAsTool).toBeUndefined();
	});

	it('listens on one POST webhook that answers, with no body, when the relay is received', () => {
		expect(description.webhooks).toEqual([
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', responseData: 'noData', path: 'phonovation' },
		]);
	});

	it('offers the four events, all but processing results selected by default', () => {
		const events = property('events');
		expect(events.type).toBe('multiOptions');
		expect(events.default).toEqual(['inbound', 'optOut', 'deliveryReceipt']);
		const options = events.options as Array<{ name: string; value: string }>;
		expect(options.map((o) => o.value).sort()).toEqual(['deliveryReceipt', 'inbound', 'optOut', 'processingResult']);
		expect(options.map((o) => o.name)).toEqual([...options.map((o) => o.name)].sort());
	});

	it('has the keyword, signature, token and raw options with safe defaults', () => {
		const options = property('options').options as INodeProperties[];
		expect(Object.fromEntries(options.map((o) => [o.name, o.default]))).toEqual({
			includeRaw: false,
			keywords: '',
			token: '',
			verifySignature: true,
		});
		expect(options.find((o) => o.name === 'token')!.typeOptions?.password).toBe(true);
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

	it('explains the URL token when processing results are selected', () => {
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
		const codex = JSON.parse(readFileSync(path.join(NODE_DIR, 'PhonovationTrigger.node.json'), 'utf8'));
		expect(codex).toEqual({
			node: 'n8n-nodes-phonovation.phonovationTrigger',
			nodeVersion: '1.0',
			codexVersion: '1.0',
			categories: ['Communication'],
			resources: {
				credentialDocumentation: [{ url: 'https://github.com/n8n-nodes-phonovation/n8n-nodes-phonovation#credentials' }],
				primaryDocumentation: [{ url: 'https://github.com/n8n-nodes-phonovation/n8n-nodes-phonovation#trigger' }],
			},
		});
	});
});
