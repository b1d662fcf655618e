/**
 * Port of upstream `node-operation-error-itemindex`: inside an item loop of a node's execute()
 * (a `for` whose test reads `<items>.length`, or a `for...of` over `<items>` / `this.getInputData()`,
 * where `<items>` was initialised from `this.getInputData()`), `new NodeOperationError(...)` and
 * `new NodeApiError(...)` must pass `{ itemIndex }` as the third argument. A non-literal or spread
 * options argument is given the benefit of the doubt.
 */
import { AST_NODE_TYPES, TSESTree } from '@typescript-eslint/utils';

import {
	createRule,
	findObjectProperty,
	isFileType,
	isNodeTypeClass,
	isThisMethodCall,
} from '../utils';

const ITEM_ERRORS = new Set(['NodeOperationError', 'NodeApiError']);

function isLengthOf(node: TSESTree.Node, names: Set<string>): boolean {
	return (
		node.type === AST_NODE_TYPES.MemberExpression &&
		!node.computed &&
		node.property.type === AST_NODE_TYPES.Identifier &&
		node.property.name === 'length' &&
		node.object.type === AST_NODE_TYPES.Identifier &&
		names.has(node.object.name)
	);
}

function hasItemIndex(node: TSESTree.NewExpression): boolean {
	if (node.arguments.length < 3) return false;
	const options = node.arguments[2];
	if (options?.type !== AST_NODE_TYPES.ObjectExpression) return true;
	if (options.properties.some((p) => p.type === AST_NODE_TYPES.SpreadElement)) return true;
	return findObjectProperty(options, 'itemIndex') !== null;
}

function isExecute(node: TSESTree.MethodDefinition): boolean {
	return node.key.type === AST_NODE_TYPES.Identifier && node.key.name === 'execute';
}

export const nodeOperationErrorItemindex = createRule({
	name: 'node-operation-error-itemindex',
	meta: {
		type: 'problem',
		docs: {
			description:
				'Require { itemIndex } in NodeOperationError / NodeApiError options inside item loops',
		},
		messages: {
			missingItemIndex:
				'`new {{ errorClass }}(...)` inside an item loop must include `{ itemIndex }` as the third argument so n8n can associate the error with the failing item.',
		},
		schema: [],
	},
	defaultOptions: [],
	create(context) {
		if (!isFileType(context.filename, '.node.ts')) return {};
		let inNodeClass = false;
		let inExecute = false;
		const itemVariables = new Set<string>();
		const itemLoops = new Set<TSESTree.Node>();
		const reset = () => {
			inExecute = false;
			itemVariables.clear();
			itemLoops.clear();
		};
		const leaveLoop = (node: TSESTree.Node) => {
			itemLoops.delete(node);
		};
		return {
			ClassDeclaration(node) {
				if (isNodeTypeClass(node)) inNodeClass = true;
			},
			'ClassDeclaration:exit'() {
				inNodeClass = false;
				reset();
			},
			MethodDefinition(node) {
				if (inNodeClass && isExecute(node)) inExecute = true;
			},
			'MethodDefinition:exit'(node) {
				if (inExecute && isExecute(node)) reset();
			},
			VariableDeclarator(node) {
				if (
					inExecute &&
					node.id.type === AST_NODE_TYPES.Identifier &&
					node.init?.type === AST_NODE_TYPES.CallExpression &&
					isThisMethodCall(node.init, 'getInputData')
				) {
					itemVariables.add(node.id.name);
				}
			},
			ForStatement(node) {
				if (
					inExecute &&
					node.test?.type === AST_NODE_TYPES.BinaryExpression &&
					(isLengthOf(node.test.left, itemVariables) || isLengthOf(node.test.right, itemVariables))
				) {
					itemLoops.add(node);
				}
			},
			'ForStatement:exit': leaveLoop,
			ForOfStatement(node) {
				if (!inExecute) return;
				const { right } = node;
				if (
					(right.type === AST_NODE_TYPES.Identifier && itemVariables.has(right.name)) ||
					(right.type === AST_NODE_TYPES.CallExpression && isThisMethodCall(right, 'getInputData'))
				) {
					itemLoops.add(node);
				}
			},
			'ForOfStatement:exit': leaveLoop,
			NewExpression(node) {
				if (itemLoops.size === 0) return;
				if (node.callee.type !== AST_NODE_TYPES.Identifier || !ITEM_ERRORS.has(node.callee.name))
					return;
				if (!hasItemIndex(node)) {
					context.report({
						node,
						messageId: 'missingItemIndex',
						data: { errorClass: node.callee.name },
					});
				}
			},
		};
	},
});
