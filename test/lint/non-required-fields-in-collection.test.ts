/** Cases from upstream non-required-fields-in-collection.test.ts. */
import { nonRequiredFieldsInCollection } from '../../lint/rules/non-required-fields-in-collection';
import { asEslintRule, nodeClass, ruleTester } from './ruleTester';

const props = (items: string) => nodeClass(`properties: [${items}],`);
const REQUIRED = `{ displayName: 'Email', name: 'email', type: 'string', required: true, default: '' },`;
const LIMIT = `{ displayName: 'Limit', name: 'limit', type: 'number', default: 50 },`;
const filename = '/tmp/TestNode.node.ts';
const error = (field: string) => ({ messageId: 'nonRequiredFieldAtTopLevel', data: { field } });

ruleTester.run('non-required-fields-in-collection', asEslintRule(nonRequiredFieldsInCollection), {
	valid: [
		{
			name: 'class that does not implement INodeType',
			filename,
			code: `export class NotANode { description = { properties: [${LIMIT}] }; }`,
		},
		{ name: 'non .node.ts file', filename: '/tmp/helper.ts', code: props(LIMIT) },
		{ name: 'required top-level field', filename, code: props(REQUIRED) },
		{
			name: 'non-required field inside an Additional Fields collection',
			filename,
			code: props(
				`${REQUIRED} { displayName: 'Additional Fields', name: 'additionalFields', type: 'collection', placeholder: 'Add Field', default: {}, options: [${LIMIT}] },`,
			),
		},
		{
			name: 'non-required field inside a fixedCollection',
			filename,
			code: props(
				`{ displayName: 'Options', name: 'options', type: 'fixedCollection', default: {}, options: [] },`,
			),
		},
		{
			name: 'resource, operation and authentication selectors',
			filename,
			code: props(`
				{ displayName: 'Resource', name: 'resource', type: 'options', noDataExpression: true, options: [{ name: 'User', value: 'user' }], default: 'user' },
				{ displayName: 'Operation', name: 'operation', type: 'options', noDataExpression: true, options: [{ name: 'Get', value: 'get' }], default: 'get' },
				{ displayName: 'Authentication', name: 'authentication', type: 'options', options: [{ name: 'Access Token', value: 'accessToken' }], default: 'accessToken' },`),
		},
		{
			name: 'fields that hold no user input (notice, hidden)',
			filename,
			code: props(`${REQUIRED}
				{ displayName: 'This node needs an API key', name: 'notice', type: 'notice', default: '' },
				{ displayName: 'Internal', name: 'internal', type: 'hidden', default: 'v2' },`),
		},
		{
			name: 'required value that is not a boolean literal',
			filename,
			code: props(
				`{ displayName: 'Limit', name: 'limit', type: 'number', required: isLimitRequired, default: 50 },`,
			),
		},
		{ name: 'spread properties are not analysed', filename, code: props('...userFields,') },
	],
	invalid: [
		{
			name: 'top-level field that omits required',
			filename,
			code: props(`${REQUIRED} ${LIMIT}`),
			errors: [error('limit')],
		},
		{
			name: 'top-level field with required: false',
			filename,
			code: props(
				`${REQUIRED} { displayName: 'Limit', name: 'limit', type: 'number', required: false, default: 50 },`,
			),
			errors: [error('limit')],
		},
		{
			name: 'each non-required top-level field is reported',
			filename,
			code: props(
				`${REQUIRED} ${LIMIT} { displayName: 'Simplify', name: 'simplify', type: 'boolean', default: true },`,
			),
			errors: [error('limit'), error('simplify')],
		},
	],
});
