/**
 * Node description rules: hint-max-length, no-asterisk-in-option-names,
 * node-class-description-name-camelcase, node-class-description-non-core-color,
 * node-filename-against-convention, options-sorted-alphabetically, require-param-default,
 * open-ended-node-fields, no-hardcoded-ids.
 */
import { hintMaxLength } from '../../lint/rules/hint-max-length';
import { noAsteriskInOptionNames } from '../../lint/rules/no-asterisk-in-option-names';
import { noHardcodedIds } from '../../lint/rules/no-hardcoded-ids';
import { nodeClassDescriptionNameCamelcase } from '../../lint/rules/node-class-description-name-camelcase';
import { nodeClassDescriptionNonCoreColor } from '../../lint/rules/node-class-description-non-core-color';
import { nodeFilenameAgainstConvention } from '../../lint/rules/node-filename-against-convention';
import { openEndedNodeFields } from '../../lint/rules/open-ended-node-fields';
import { optionsSortedAlphabetically } from '../../lint/rules/options-sorted-alphabetically';
import { requireParamDefault } from '../../lint/rules/require-param-default';
import { asEslintRule, nodeClass, ruleTester } from './ruleTester';

const filename = 'TestNode.node.ts';
const props = (items: string) => nodeClass(`properties: [${items}],`);
const named = (name: string, extra = '') => `
import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
export class TestNode implements INodeType {
	description: INodeTypeDescription = { displayName: 'Test', name: ${name}, ${extra} properties: [] };
}`;

ruleTester.run('hint-max-length', asEslintRule(hintMaxLength), {
	valid: [
		{
			name: 'short hint',
			filename,
			code: props(`{ displayName: 'A', name: 'a', type: 'string', default: '', hint: 'Short' }`),
		},
		{
			name: 'not a node file',
			filename: 'x.ts',
			code: props(`{ name: 'a', hint: '${'x'.repeat(200)}' }`),
		},
	],
	invalid: [
		{
			name: 'long hint nested in a collection',
			filename,
			code: props(
				`{ displayName: 'O', name: 'o', type: 'collection', default: {}, options: [{ displayName: 'A', name: 'a', type: 'string', default: '', hint: '${'x'.repeat(121)}' }] }`,
			),
			errors: [{ messageId: 'hintTooLong', data: { length: '121', max: '120' } }],
		},
	],
});

ruleTester.run('no-asterisk-in-option-names', asEslintRule(noAsteriskInOptionNames), {
	valid: [
		{
			name: 'bracketed All',
			filename,
			code: props(
				`{ displayName: 'F', name: 'f', type: 'options', default: 'a', options: [{ name: '[All]', value: 'a' }] }`,
			),
		},
		{
			name: 'asterisk in a placeholder is fine',
			filename,
			code: props(
				`{ displayName: 'K', name: 'k', type: 'string', default: '', placeholder: 'A, *' }`,
			),
		},
	],
	invalid: [
		{
			name: 'asterisk in an option name',
			filename,
			code: props(
				`{ displayName: 'F', name: 'f', type: 'options', default: 'a', options: [{ name: '*', value: 'a' }] }`,
			),
			errors: [
				{
					messageId: 'asteriskInOptionName',
					suggestions: [
						{
							messageId: 'replaceAsterisk',
							output: props(
								`{ displayName: 'F', name: 'f', type: 'options', default: 'a', options: [{ name: '[All]', value: 'a' }] }`,
							),
						},
					],
				},
			],
		},
	],
});

ruleTester.run(
	'node-class-description-name-camelcase',
	asEslintRule(nodeClassDescriptionNameCamelcase),
	{
		valid: [{ name: 'camelCase (ours)', filename, code: named("'phonovationTrigger'") }],
		invalid: [
			{
				name: 'kebab-case',
				filename,
				code: named("'my-node'"),
				output: named("'myNode'"),
				errors: [{ messageId: 'notCamelCase' }],
			},
			{
				name: 'leading digit cannot be fixed',
				filename,
				code: named("'1node'"),
				output: null,
				errors: [{ messageId: 'notCamelCase' }],
			},
		],
	},
);

ruleTester.run(
	'node-class-description-non-core-color',
	asEslintRule(nodeClassDescriptionNonCoreColor),
	{
		valid: [
			{
				name: 'own color',
				filename,
				code: named("'testNode'", "defaults: { name: 'Test', color: '#1A82e2' },"),
			},
		],
		invalid: [
			{
				name: 'core color in defaults',
				filename,
				code: named("'testNode'", "defaults: { name: 'Test', color: '#FF6D5A' },"),
				errors: [{ messageId: 'coreColor' }],
			},
		],
	},
);

ruleTester.run('node-filename-against-convention', asEslintRule(nodeFilenameAgainstConvention), {
	valid: [
		{
			name: 'matching file',
			filename: '/repo/nodes/TestNode/TestNode.node.ts',
			code: named("'testNode'"),
		},
		{
			name: 'versioned file',
			filename: '/repo/nodes/TestNode/TestNodeV2.node.ts',
			code: named("'testNode'"),
		},
	],
	invalid: [
		{
			name: 'file named differently',
			filename: '/repo/nodes/Test/Other.node.ts',
			code: named("'testNode'"),
			errors: [{ messageId: 'renameFile', data: { expected: 'TestNode.node.ts' } }],
		},
	],
});

const resource = (options: string) =>
	props(
		`{ displayName: 'Resource', name: 'resource', type: 'options', noDataExpression: true, default: 'a', options: [${options}] }`,
	);
ruleTester.run('options-sorted-alphabetically', asEslintRule(optionsSortedAlphabetically), {
	valid: [
		{
			name: 'sorted (ours)',
			filename,
			code: resource(
				"{ name: 'Campaign', value: 'campaign' }, { name: 'Conversation', value: 'conversation' }, { name: 'Legacy Message', value: 'legacyMessage' }, { name: 'Sender ID', value: 'sender' }, { name: 'Service', value: 'service' }",
			),
		},
		{
			name: 'dynamic name skipped',
			filename,
			code: resource("{ name: label, value: 'b' }, { name: 'A', value: 'a' }"),
		},
	],
	invalid: [
		{
			name: 'unsorted',
			filename,
			code: resource("{ name: 'Service', value: 's' }, { name: 'campaign', value: 'c' }"),
			errors: [
				{
					messageId: 'optionsNotSorted',
					data: { displayName: 'Resource', expectedOrder: 'campaign, Service' },
				},
			],
		},
	],
});

ruleTester.run('require-param-default', asEslintRule(requireParamDefault), {
	valid: [
		{
			name: 'all parameters have defaults',
			filename,
			code: props(`{ displayName: 'A', name: 'a', type: 'string', default: '' }`),
		},
		{
			name: 'options entries are not parameters',
			filename,
			code: resource("{ name: 'A', value: 'a' }"),
		},
	],
	invalid: [
		{
			name: 'nested parameter without default',
			filename,
			code: props(
				`{ displayName: 'O', name: 'o', type: 'collection', default: {}, options: [{ displayName: 'A', name: 'a', type: 'boolean' }] }`,
			),
			errors: [{ messageId: 'missingDefault', data: { name: 'a' } }],
		},
	],
});

ruleTester.run('open-ended-node-fields', asEslintRule(openEndedNodeFields), {
	valid: [
		{
			name: 'required json',
			filename,
			code: props(
				`{ displayName: 'Body', name: 'body', type: 'json', required: true, default: '{}' }`,
			),
		},
	],
	invalid: [
		{
			name: 'optional json',
			filename,
			code: props(`{ displayName: 'Body', name: 'body', type: 'json', default: '{}' }`),
			errors: [{ messageId: 'optionalJson' }],
		},
	],
});

ruleTester.run('no-hardcoded-ids', asEslintRule(noHardcodedIds), {
	valid: [
		{
			name: 'id from a parameter',
			filename,
			code: "const accountId = this.getNodeParameter('accountId', 0);",
		},
		{ name: 'not a node file', filename: 'helper.ts', code: "const partnerId = 'abc';" },
	],
	invalid: [
		{
			name: 'variable',
			filename,
			code: "const partnerId = 'abc123';",
			errors: [{ messageId: 'hardcodedId', data: { name: 'partnerId' } }],
		},
		{
			name: 'property',
			filename,
			code: "const body = { affiliate_id: 'x' };",
			errors: [{ messageId: 'hardcodedId' }],
		},
		{
			name: 'member assignment',
			filename,
			code: "qs['client-id'] = 'x';",
			errors: [{ messageId: 'hardcodedId' }],
		},
	],
});
