/** execute() rules: node-operation-error-itemindex, prefer-declarative-style. */
import { nodeOperationErrorItemindex } from '../../lint/rules/node-operation-error-itemindex';
import { preferDeclarativeStyle } from '../../lint/rules/prefer-declarative-style';
import { asEslintRule, nodeClass, ruleTester } from './ruleTester';

const filename = 'Test.node.ts';
const execute = (body: string) =>
	nodeClass('properties: [],', `async execute(this: IExecuteFunctions) {\n${body}\n}`);

ruleTester.run('node-operation-error-itemindex', asEslintRule(nodeOperationErrorItemindex), {
	valid: [
		{
			name: 'itemIndex passed',
			filename,
			code: execute(`const items = this.getInputData();
for (let i = 0; i < items.length; i++) { throw new NodeOperationError(this.getNode(), 'x', { itemIndex: i }); }`),
		},
		{
			name: 'outside an item loop',
			filename,
			code: execute("throw new NodeOperationError(this.getNode(), 'x');"),
		},
		{
			name: 'options from a variable',
			filename,
			code: execute(
				`for (const item of this.getInputData()) { throw new NodeApiError(this.getNode(), e, opts); }`,
			),
		},
		{
			name: 'outside execute()',
			filename,
			code: nodeClass(
				'properties: [],',
				`async webhook() { const items = this.getInputData(); for (const i of items) throw new NodeOperationError(n, 'x'); }`,
			),
		},
	],
	invalid: [
		{
			name: 'for loop over items without itemIndex',
			filename,
			code: execute(`const items = this.getInputData();
for (let i = 0; i < items.length; i++) { throw new NodeOperationError(this.getNode(), 'x'); }`),
			errors: [{ messageId: 'missingItemIndex', data: { errorClass: 'NodeOperationError' } }],
		},
		{
			name: 'for-of over getInputData() with options lacking itemIndex',
			filename,
			code: execute(
				`for (const item of this.getInputData()) { throw new NodeApiError(this.getNode(), e, { message: 'm' }); }`,
			),
			errors: [{ messageId: 'missingItemIndex', data: { errorClass: 'NodeApiError' } }],
		},
	],
});

const oneRequestPerItem = `const items = this.getInputData();
const returnData = [];
for (let i = 0; i < items.length; i++) {
	const id = this.getNodeParameter('id', i);
	const response = await this.helpers.httpRequestWithAuthentication.call(this, 'exampleApi', { url: id });
	returnData.push({ json: response, pairedItem: { item: i } });
}
return [returnData];`;

ruleTester.run('prefer-declarative-style', asEslintRule(preferDeclarativeStyle), {
	valid: [
		{
			name: 'pagination is an escape hatch',
			filename,
			code: execute(oneRequestPerItem.replace("'id'", "'returnAll'")),
		},
		{
			name: 'delegating execute (ours)',
			filename,
			code: execute('return await route.call(this);'),
		},
		{
			name: 'trigger nodes are out of scope',
			filename: 'TestTrigger.node.ts',
			code: nodeClass(
				'properties: [],',
				`async execute(this: IExecuteFunctions) {\n${oneRequestPerItem}\n}`,
				'TestTrigger',
			),
		},
	],
	invalid: [
		{
			name: 'one request per item and nothing else',
			filename,
			code: execute(oneRequestPerItem),
			errors: [{ messageId: 'preferDeclarativeStyle' }],
		},
	],
});
