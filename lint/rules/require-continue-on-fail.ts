/**
 * Port of upstream `require-continue-on-fail`: the execute() method of a node class must call
 * `this.continueOnFail()` somewhere in its own body (a call in a helper it delegates to does not count).
 */
import { AST_NODE_TYPES, TSESTree } from '@typescript-eslint/utils';

import { createRule, isNodeTypeClass, isThisMethodCall, walk } from '../utils';

function callsContinueOnFail(body: TSESTree.Node): boolean {
	return walk(
		body,
		(node) =>
			node.type === AST_NODE_TYPES.CallExpression && isThisMethodCall(node, 'continueOnFail'),
	);
}

export const requireContinueOnFail = createRule({
	name: 'require-continue-on-fail',
	meta: {
		type: 'problem',
		docs: { description: 'Require continueOnFail() handling in execute() methods of node classes' },
		messages: {
			missingContinueOnFail:
				'execute() method must handle this.continueOnFail() for proper error handling. ' +
				'Wrap item processing in a try/catch and check this.continueOnFail() in the catch block.',
		},
		schema: [],
	},
	defaultOptions: [],
	create(context) {
		return {
			ClassDeclaration(node) {
				if (!isNodeTypeClass(node)) return;
				for (const member of node.body.body) {
					if (
						member.type === AST_NODE_TYPES.MethodDefinition &&
						member.key.type === AST_NODE_TYPES.Identifier &&
						member.key.name === 'execute' &&
						member.value.body &&
						!callsContinueOnFail(member.value.body)
					) {
						context.report({ node: member.key, messageId: 'missingContinueOnFail' });
					}
				}
			},
		};
	},
});
