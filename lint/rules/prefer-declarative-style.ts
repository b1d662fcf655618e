/**
 * Port of upstream `prefer-declarative-style`: a non-trigger node with one output whose execute()
 * makes exactly one `this.helpers.httpRequest*` call, inside a top-level loop over the input items
 * that uses the item, and nothing else (no pagination/binary/cursor names, no other calls than
 * getCredentials/getInputData/getNodeParameter/push), should use declarative routing instead.
 */
import { AST_NODE_TYPES, TSESTree } from '@typescript-eslint/utils';

import {
	createRule,
	findNodeDescriptionObject,
	findObjectProperty,
	getPropertyKeyName,
	isFileType,
	isNodeTypeClass,
	isThisHelpersAccess,
	isThisMethodCall,
	isTriggerNode,
} from '../utils';

const HTTP_METHODS = new Set(['httpRequest', 'httpRequestWithAuthentication']);
const ALLOWED_CALLS = new Set(['getCredentials', 'getInputData', 'getNodeParameter', 'push']);
const ESCAPE_HATCH = /binary|cursor|offset|page|pagination|returnAll/i;

type Loop =
	| TSESTree.ForStatement
	| TSESTree.ForInStatement
	| TSESTree.ForOfStatement
	| TSESTree.WhileStatement
	| TSESTree.DoWhileStatement;

interface ExecuteState {
	node: TSESTree.MethodDefinition;
	requests: number;
	escapeHatch: boolean;
	requestInItemLoop: boolean;
	inputItems: Set<string>;
	zeroIndexes: Set<string>;
	loops: Array<{ index: string | null; usesItem: boolean; hasRequest: boolean }>;
}

function isInputItems(node: TSESTree.Node, state: ExecuteState): boolean {
	return (
		(node.type === AST_NODE_TYPES.Identifier && state.inputItems.has(node.name)) ||
		(node.type === AST_NODE_TYPES.CallExpression && isThisMethodCall(node, 'getInputData'))
	);
}

function increments(node: TSESTree.Node, index: string): boolean {
	return (
		node.type === AST_NODE_TYPES.UpdateExpression &&
		node.operator === '++' &&
		node.argument.type === AST_NODE_TYPES.Identifier &&
		node.argument.name === index
	);
}

/** '' for a for-of/for-in over the items, the index name for `i < items.length` loops counting up from 0, else null. */
function itemLoopIndex(node: Loop, state: ExecuteState): string | null {
	if (node.type === AST_NODE_TYPES.ForOfStatement || node.type === AST_NODE_TYPES.ForInStatement) {
		return isInputItems(node.right, state) ? '' : null;
	}
	const test = node.test;
	if (
		test?.type !== AST_NODE_TYPES.BinaryExpression ||
		test.operator !== '<' ||
		test.left.type !== AST_NODE_TYPES.Identifier ||
		test.right.type !== AST_NODE_TYPES.MemberExpression ||
		test.right.computed ||
		test.right.property.type !== AST_NODE_TYPES.Identifier ||
		test.right.property.name !== 'length' ||
		!isInputItems(test.right.object, state)
	) {
		return null;
	}
	const index = test.left.name;
	if (node.type === AST_NODE_TYPES.ForStatement) {
		const startsAtZero =
			node.init?.type === AST_NODE_TYPES.VariableDeclaration &&
			node.init.declarations.some(
				(d) =>
					d.id.type === AST_NODE_TYPES.Identifier &&
					d.id.name === index &&
					d.init?.type === AST_NODE_TYPES.Literal &&
					d.init.value === 0,
			);
		return startsAtZero && node.update !== null && increments(node.update, index) ? index : null;
	}
	const counts =
		state.zeroIndexes.has(index) &&
		node.body.type === AST_NODE_TYPES.BlockStatement &&
		node.body.body.some(
			(s) => s.type === AST_NODE_TYPES.ExpressionStatement && increments(s.expression, index),
		);
	return counts ? index : null;
}

function memberName(node: TSESTree.CallExpression): string | null {
	if (node.callee.type !== AST_NODE_TYPES.MemberExpression) return null;
	return node.callee.property.type === AST_NODE_TYPES.Identifier ? node.callee.property.name : null;
}

function isHttpRequest(node: TSESTree.CallExpression): boolean {
	const callee = node.callee;
	if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
	const name = memberName(node);
	if (name && HTTP_METHODS.has(name) && isThisHelpersAccess(callee)) return true;
	return (
		name === 'call' &&
		callee.object.type === AST_NODE_TYPES.MemberExpression &&
		callee.object.property.type === AST_NODE_TYPES.Identifier &&
		HTTP_METHODS.has(callee.object.property.name) &&
		isThisHelpersAccess(callee.object)
	);
}

export const preferDeclarativeStyle = createRule({
	name: 'prefer-declarative-style',
	meta: {
		type: 'suggestion',
		docs: {
			description: 'Prefer declarative routing for nodes that only send one HTTP request per item.',
		},
		messages: {
			preferDeclarativeStyle:
				'This execute() method only sends one HTTP request per input item. Use declarative routing and requestDefaults instead.',
		},
		schema: [],
	},
	defaultOptions: [],
	create(context) {
		if (!isFileType(context.filename, '.node.ts')) return {};
		const eligible: boolean[] = [];
		let state: ExecuteState | null = null;

		const enterLoop = (node: Loop) => {
			if (!state) return;
			const index = itemLoopIndex(node, state);
			state.loops.push({ index, usesItem: index === '', hasRequest: false });
		};
		const exitLoop = () => {
			if (!state) return;
			const loop = state.loops.pop();
			if (
				state.loops.length === 0 &&
				loop &&
				loop.index !== null &&
				loop.usesItem &&
				loop.hasRequest
			) {
				state.requestInItemLoop = true;
			}
		};

		return {
			ClassDeclaration(node) {
				const description = findNodeDescriptionObject(node);
				const outputs = description ? findObjectProperty(description, 'outputs')?.value : undefined;
				eligible.push(
					isNodeTypeClass(node) &&
						description !== null &&
						!isTriggerNode(node, description) &&
						outputs?.type === AST_NODE_TYPES.ArrayExpression &&
						outputs.elements.length === 1,
				);
			},
			'ClassDeclaration:exit'() {
				eligible.pop();
			},
			MethodDefinition(node) {
				if (eligible.at(-1) && getPropertyKeyName(node) === 'execute') {
					state = {
						node,
						requests: 0,
						escapeHatch: false,
						requestInItemLoop: false,
						inputItems: new Set(),
						zeroIndexes: new Set(),
						loops: [],
					};
				}
			},
			'MethodDefinition:exit'(node) {
				if (state?.node !== node) return;
				if (state.requests === 1 && state.requestInItemLoop && !state.escapeHatch) {
					context.report({ node, messageId: 'preferDeclarativeStyle' });
				}
				state = null;
			},
			VariableDeclarator(node) {
				if (!state || node.id.type !== AST_NODE_TYPES.Identifier) return;
				if (
					node.init?.type === AST_NODE_TYPES.CallExpression &&
					isThisMethodCall(node.init, 'getInputData')
				) {
					state.inputItems.add(node.id.name);
				}
				if (node.init?.type === AST_NODE_TYPES.Literal && node.init.value === 0)
					state.zeroIndexes.add(node.id.name);
			},
			ForStatement: enterLoop,
			ForInStatement: enterLoop,
			ForOfStatement: enterLoop,
			WhileStatement: enterLoop,
			DoWhileStatement: enterLoop,
			'ForStatement:exit': exitLoop,
			'ForInStatement:exit': exitLoop,
			'ForOfStatement:exit': exitLoop,
			'WhileStatement:exit': exitLoop,
			'DoWhileStatement:exit': exitLoop,
			Identifier(node) {
				if (!state) return;
				if (ESCAPE_HATCH.test(node.name)) state.escapeHatch = true;
				const loop = state.loops.at(-1);
				if (loop?.index !== node.name) return;
				const parent = node.parent;
				if (
					(parent.type === AST_NODE_TYPES.MemberExpression &&
						parent.computed &&
						parent.property === node &&
						isInputItems(parent.object, state)) ||
					(parent.type === AST_NODE_TYPES.CallExpression &&
						isThisMethodCall(parent, 'getNodeParameter') &&
						parent.arguments[1] === node) ||
					(parent.type === AST_NODE_TYPES.Property &&
						parent.value === node &&
						getPropertyKeyName(parent) === 'item')
				) {
					loop.usesItem = true;
				}
			},
			Literal(node) {
				if (!state || typeof node.value !== 'string' || !ESCAPE_HATCH.test(node.value)) return;
				const parent = node.parent;
				if (
					(parent.type === AST_NODE_TYPES.CallExpression &&
						memberName(parent) === 'getNodeParameter' &&
						parent.arguments[0] === node) ||
					(parent.type === AST_NODE_TYPES.Property && parent.key === node)
				) {
					state.escapeHatch = true;
				}
			},
			TemplateLiteral(node) {
				const parent = node.parent;
				if (
					state &&
					parent.type === AST_NODE_TYPES.CallExpression &&
					memberName(parent) === 'getNodeParameter' &&
					parent.arguments[0] === node &&
					node.quasis.some((q) => ESCAPE_HATCH.test(q.value.cooked ?? ''))
				) {
					state.escapeHatch = true;
				}
			},
			CallExpression(node) {
				if (!state) return;
				if (isHttpRequest(node)) {
					state.requests++;
					if (state.loops.length === 1) state.loops[0]!.hasRequest = true;
					return;
				}
				const name = memberName(node);
				if (!name || !ALLOWED_CALLS.has(name)) state.escapeHatch = true;
			},
		};
	},
});
