/** Cases from upstream single-credential-per-node.test.ts. */
import { singleCredentialPerNode } from '../../lint/rules/single-credential-per-node';
import { asEslintRule, ruleTester } from './ruleTester';

function node(
	credentials: string,
	properties = '[]',
	className = 'TestNode',
	group = 'output',
): string {
	return `
import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
export class ${className} implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Test Node',
		name: 'testNode',
		group: ['${group}'],
		version: 1,
		description: 'Test node',
		defaults: { name: 'Test Node' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: ${credentials},
		properties: ${properties},
	};
}`;
}

const alternatives = `[
	{ name: 'testApi', required: true, displayOptions: { show: { authentication: ['apiKey'] } } },
	{ name: 'testOAuth2Api', required: true, displayOptions: { show: { authentication: ['oAuth2'] } } },
]`;
const authentication = `[{
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	options: [{ name: 'API Key', value: 'apiKey' }, { name: 'OAuth2', value: 'oAuth2' }],
	default: 'apiKey',
}]`;
const pair = (first: string, second: string) => `[
	{ name: 'firstApi', displayOptions: { show: { authentication: [${first}] } } },
	{ name: 'secondApi', displayOptions: { show: { authentication: [${second}] } } },
]`;
const error = [{ messageId: 'multipleCredentials' }];

ruleTester.run('single-credential-per-node', asEslintRule(singleCredentialPerNode), {
	valid: [
		{
			name: 'class that does not implement INodeType',
			filename: 'Test.node.ts',
			code: 'export class TestNode {}',
		},
		{
			name: 'file that is not a node file',
			filename: 'Test.ts',
			code: node(
				"[{ name: 'testOAuth2Api', required: true }, { name: 'senderProfile', required: true }]",
			),
		},
		{
			name: 'one credential (our nodes)',
			filename: 'Test.node.ts',
			code: node("[{ name: 'phonovationApi', required: true }]"),
		},
		{
			name: 'mutually exclusive literal values',
			filename: 'Test.node.ts',
			code: node(alternatives, authentication),
		},
		{
			name: 'mutually exclusive enum values',
			filename: 'Test.node.ts',
			code: `enum AuthenticationType { ApiKey = 'apiKey', OAuth2 = 'oAuth2' }
${node(pair('AuthenticationType.ApiKey', 'AuthenticationType.OAuth2'))}`,
		},
		{
			name: 'mutually exclusive constants',
			filename: 'Test.node.ts',
			code: `const API_KEY_AUTH = 'apiKey';\nconst OAUTH2_AUTH = 'oAuth2';\n${node(pair('API_KEY_AUTH', 'OAUTH2_AUTH'))}`,
		},
		{
			name: 'distinct members of an imported enum',
			filename: 'Test.node.ts',
			code: `import { AuthenticationType } from './AuthenticationType';
${node(pair('AuthenticationType.ApiKey', 'AuthenticationType.OAuth2'))}`,
		},
	],
	invalid: [
		{
			name: 'concurrent credentials on a trigger node',
			filename: 'TestTrigger.node.ts',
			code: node(
				"[{ name: 'outboundApi', required: true }, { name: 'webhookAuth', required: true }]",
				'[]',
				'TestTrigger',
				'trigger',
			),
			errors: error,
		},
		{
			name: 'concurrent credentials (CE-2317)',
			filename: 'Test.node.ts',
			code: node(
				"[{ name: 'testOAuth2Api', required: true }, { name: 'senderProfile', required: true }]",
			),
			errors: error,
		},
		{
			name: 'overlapping display options',
			filename: 'Test.node.ts',
			code: node(pair("'apiKey', 'shared'", "'shared', 'oAuth2'")),
			errors: error,
		},
		{
			name: 'a constant alias and a literal with the same value',
			filename: 'Test.node.ts',
			code: `const API_KEY_AUTH = 'apiKey';\n${node(pair('API_KEY_AUTH', "'apiKey'"))}`,
			errors: error,
		},
		{
			name: 'enum members with the same value',
			filename: 'Test.node.ts',
			code: `enum AuthenticationType { ApiKey = 'apiKey', AlternateApiKey = 'apiKey' }
${node(pair('AuthenticationType.ApiKey', 'AuthenticationType.AlternateApiKey'))}`,
			errors: error,
		},
		{
			name: 'unresolved values that might overlap',
			filename: 'Test.node.ts',
			code: node(pair('EXTERNAL_API_KEY', "'oAuth2'")),
			errors: error,
		},
		{
			name: 'matching members of an imported enum',
			filename: 'Test.node.ts',
			code: `import { AuthenticationType } from './AuthenticationType';
${node(pair('AuthenticationType.ApiKey', 'AuthenticationType.ApiKey'))}`,
			errors: error,
		},
		{
			name: 'imported enum member against a literal',
			filename: 'Test.node.ts',
			code: `import { AuthenticationType } from './AuthenticationType';
${node(pair('AuthenticationType.ApiKey', "'apiKey'"))}`,
			errors: error,
		},
		{
			name: 'disjoint conditions on a multiOptions property',
			filename: 'Test.node.ts',
			code: node(alternatives, authentication.replace("type: 'options'", "type: 'multiOptions'")),
			errors: error,
		},
		{
			name: 'conditions with unresolved expressions',
			filename: 'Test.node.ts',
			code: node(pair('getAuthentication()', "'oAuth2'")),
			errors: error,
		},
	],
});
