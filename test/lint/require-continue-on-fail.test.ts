/** Cases from upstream require-continue-on-fail.test.ts, plus the shape of our Phonovation node. */
import { requireContinueOnFail } from '../../lint/rules/require-continue-on-fail';
import { asEslintRule, nodeClass, ruleTester } from './ruleTester';

const withExecute = (body: string) =>
	nodeClass(
		'properties: [],',
		`async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {\n${body}\n}`,
	);

ruleTester.run('require-continue-on-fail', asEslintRule(requireContinueOnFail), {
	valid: [
		{
			name: 'continueOnFail checked in the catch block',
			filename: 'Test.node.ts',
			code: withExecute(`
				const items = this.getInputData();
				const returnData: INodeExecutionData[] = [];
				for (let i = 0; i < items.length; i++) {
					try {
						returnData.push({ json: { result: true } });
					} catch (error) {
						if (this.continueOnFail()) {
							returnData.push({ json: { error: error.message } });
							continue;
						}
						throw error;
					}
				}
				return [returnData];`),
		},
		{
			name: 'non-node class with execute method',
			filename: 'Test.node.ts',
			code: 'export class RegularClass { async execute() { return [[]]; } }',
		},
		{
			name: 'node class without execute method',
			filename: 'Test.node.ts',
			code: nodeClass('properties: [],'),
		},
		{
			name: 'node extending the Node base class with continueOnFail',
			filename: 'Test.node.ts',
			code: `import { Node } from 'n8n-workflow';
export class TestNode extends Node {
	async execute() {
		try { /* work */ } catch (error) { if (this.continueOnFail()) return [[]]; throw error; }
		return [[]];
	}
}`,
		},
		{
			name: 'delegating execute that still checks continueOnFail itself',
			filename: 'Test.node.ts',
			code: withExecute(`
				try { return await route.call(this); }
				catch (error) { if (this.continueOnFail()) return [this.getInputData()]; throw error; }`),
		},
	],
	invalid: [
		{
			name: 'execute without continueOnFail',
			filename: 'Test.node.ts',
			code: withExecute(`
				const items = this.getInputData();
				const returnData: INodeExecutionData[] = [];
				for (let i = 0; i < items.length; i++) { returnData.push({ json: { result: true } }); }
				return [returnData];`),
			errors: [{ messageId: 'missingContinueOnFail' }],
		},
		{
			name: 'try/catch that only rethrows',
			filename: 'Test.node.ts',
			code: withExecute(`
				try { return [[]]; } catch (error) { throw error; }`),
			errors: [{ messageId: 'missingContinueOnFail' }],
		},
		{
			name: 'execute that delegates to a router (continueOnFail in the helper does not count)',
			filename: 'Test.node.ts',
			code: withExecute('return await route.call(this);'),
			errors: [{ messageId: 'missingContinueOnFail', line: 16 }],
		},
	],
});
