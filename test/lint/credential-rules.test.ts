/** cred-class-name-field-conventions, cred-class-name-suffix, cred-filename-against-convention. */
import { credClassNameFieldConventions } from '../../lint/rules/cred-class-name-field-conventions';
import { credClassNameSuffix } from '../../lint/rules/cred-class-name-suffix';
import { credFilenameAgainstConvention } from '../../lint/rules/cred-filename-against-convention';
import { asEslintRule, ruleTester } from './ruleTester';

const credential = (className: string, name: string) => `
import type { ICredentialType, INodeProperties } from 'n8n-workflow';
export class ${className} implements ICredentialType {
	name = ${name};
	displayName = 'Example API';
	properties: INodeProperties[] = [];
}`;

ruleTester.run('cred-class-name-field-conventions', asEslintRule(credClassNameFieldConventions), {
	valid: [
		{
			name: 'lowercase start, Api end (ours)',
			filename: 'PhonovationApi.credentials.ts',
			code: credential('PhonovationApi', "'phonovationApi'"),
		},
		{
			name: 'not a credentials file',
			filename: 'Example.ts',
			code: credential('ExampleApi', "'Example'"),
		},
		{
			name: 'non-literal name',
			filename: 'ExampleApi.credentials.ts',
			code: credential('ExampleApi', 'NAME'),
		},
	],
	invalid: [
		{
			name: 'missing Api suffix',
			filename: 'ExampleApi.credentials.ts',
			code: credential('ExampleApi', "'example'"),
			output: credential('ExampleApi', "'exampleApi'"),
			errors: [{ messageId: 'missingSuffix', data: { value: 'example' } }],
		},
		{
			name: 'uppercase first letter and partial suffix',
			filename: 'ExampleApi.credentials.ts',
			code: credential('ExampleApi', "'ExampleAp'"),
			output: credential('ExampleApi', "'exampleApi'"),
			errors: [{ messageId: 'uppercaseFirstChar' }, { messageId: 'missingSuffix' }],
		},
	],
});

ruleTester.run('cred-class-name-suffix', asEslintRule(credClassNameSuffix), {
	valid: [
		{
			name: 'Api suffix',
			filename: 'ExampleApi.credentials.ts',
			code: credential('ExampleApi', "'exampleApi'"),
		},
	],
	invalid: [
		{
			name: 'no suffix',
			filename: 'Example.credentials.ts',
			code: credential('Example', "'exampleApi'"),
			output: credential('ExampleApi', "'exampleApi'"),
			errors: [{ messageId: 'missingSuffix', data: { name: 'Example' } }],
		},
		{
			name: 'ends with A',
			filename: 'ExampleA.credentials.ts',
			code: credential('ExampleA', "'exampleApi'"),
			output: credential('ExampleApi', "'exampleApi'"),
			errors: [{ messageId: 'missingSuffix' }],
		},
	],
});

ruleTester.run('cred-filename-against-convention', asEslintRule(credFilenameAgainstConvention), {
	valid: [
		{
			name: 'file named after the class',
			filename: '/repo/credentials/PhonovationApi.credentials.ts',
			code: credential('PhonovationApi', "'phonovationApi'"),
		},
	],
	invalid: [
		{
			name: 'file named differently',
			filename: '/repo/credentials/Phonovation.credentials.ts',
			code: credential('PhonovationApi', "'phonovationApi'"),
			errors: [
				{
					messageId: 'renameFile',
					data: { className: 'PhonovationApi', expected: 'PhonovationApi.credentials.ts' },
				},
			],
		},
	],
});
