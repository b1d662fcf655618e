/** Cases after upstream no-duplicate-param-options.test.ts. */
import { noDuplicateParamOptions } from '../../lint/rules/no-duplicate-param-options';
import { asEslintRule, nodeClass, ruleTester } from './ruleTester';

const param = (type: string, options: string) =>
	nodeClass(
		`properties: [{ displayName: 'Operation', name: 'operation', type: '${type}', default: 'a', options: [${options}] }],`,
	);
const filename = 'Test.node.ts';

ruleTester.run('no-duplicate-param-options', asEslintRule(noDuplicateParamOptions), {
	valid: [
		{
			name: 'distinct names and values',
			filename,
			code: param('options', "{ name: 'A', value: 'a' }, { name: 'B', value: 'b' }"),
		},
		{
			name: 'multiOptions with distinct entries',
			filename,
			code: param('multiOptions', "{ name: 'A', value: 'a' }, { name: 'B', value: 'b' }"),
		},
		{
			name: 'not an options parameter',
			filename,
			code: param('string', "{ name: 'A', value: 'a' }, { name: 'A', value: 'a' }"),
		},
		{
			name: 'not a node file',
			filename: 'Test.ts',
			code: param('options', "{ name: 'A', value: 'a' }, { name: 'A', value: 'b' }"),
		},
		{
			name: 'dynamic values are skipped',
			filename,
			code: param('options', "{ name: 'A', value: x }, { name: 'B', value: x }"),
		},
		{
			name: 'duplicates nested in a collection are out of scope (top level only)',
			filename,
			code: nodeClass(`properties: [{ displayName: 'Options', name: 'options', type: 'collection', default: {}, options: [
				{ displayName: 'Mode', name: 'mode', type: 'options', default: 'a', options: [{ name: 'A', value: 'a' }, { name: 'A', value: 'a' }] },
			] }],`),
		},
	],
	invalid: [
		{
			name: 'duplicate name',
			filename,
			code: param('options', "{ name: 'A', value: 'a' }, { name: 'A', value: 'b' }"),
			errors: [{ messageId: 'duplicateName', data: { value: 'A', displayName: 'Operation' } }],
		},
		{
			name: 'duplicate value',
			filename,
			code: param('multiOptions', "{ name: 'A', value: 'a' }, { name: 'B', value: 'a' }"),
			errors: [{ messageId: 'duplicateValue', data: { value: 'a', displayName: 'Operation' } }],
		},
		{
			name: 'duplicate name and value, numeric values',
			filename,
			code: param('options', "{ name: 'One', value: 1 }, { name: 'One', value: 1 }"),
			errors: [{ messageId: 'duplicateName' }, { messageId: 'duplicateValue' }],
		},
	],
});
