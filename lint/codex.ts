/**
 * Codex helpers shared by the codex rules (upstream src/utils/codex-utils.ts and codex-taxonomy.ts).
 */
import { AST_NODE_TYPES, TSESLint, TSESTree } from '@typescript-eslint/utils';

import {
	fileHasInlineDescriptionCodex,
	fileImportsModule,
	getTopLevelObjectInJson,
	isFileType,
	programImportsModule,
} from './utils';

const AI_NODE_SDK = ['@n8n/ai-node-sdk', 'ai-node-sdk'];

/** n8n's known codex categories (upstream KNOWN_CODEX_CATEGORIES). */
export const KNOWN_CODEX_CATEGORIES = new Set([
	'AI',
	'Analytics',
	'Communication',
	'Core Nodes',
	'Data & Storage',
	'Developer Tools',
	'Development',
	'ECM',
	'Finance & Accounting',
	'HITL',
	'Marketing & Content',
	'Miscellaneous',
	'Productivity',
	'Sales',
	'Utility',
]);

/** Every known subcategory, whatever its category (upstream KNOWN_CODEX_SUBCATEGORIES). */
export const KNOWN_CODEX_SUBCATEGORIES = new Set([
	'Data Transformation',
	'Files',
	'Flow',
	'Helpers',
	'Other Trigger Nodes',
	'Human in the Loop',
	'Agents',
	'Chains',
	'Document Loaders',
	'Embeddings',
	'Language Models',
	'Memory',
	'Miscellaneous',
	'Model Context Protocol',
	'Output Parsers',
	'Rerankers',
	'Retrievers',
	'Root Nodes',
	'Text Splitters',
	'Tools',
	'Vector Stores',
]);

/**
 * Calls `check` with each codex object of the file: the root object of a .node.json (unless its
 * sibling .node.ts sets description.codex inline, which n8n then uses instead, or imports the AI
 * Node SDK), or every inline `codex: {...}` in a .node.ts that does not import the AI Node SDK.
 */
export function createCodexObjectVisitor(
	context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>,
	check: (codex: TSESTree.ObjectExpression) => void,
): TSESLint.RuleListener {
	if (isFileType(context.filename, '.node.json')) {
		const sibling = context.filename.replace(/\.node\.json$/, '.node.ts');
		if (fileHasInlineDescriptionCodex(sibling) || fileImportsModule(sibling, AI_NODE_SDK))
			return {};
		return {
			ObjectExpression(node) {
				const root = getTopLevelObjectInJson(node);
				if (root) check(root);
			},
		};
	}
	if (!isFileType(context.filename, '.node.ts')) return {};
	if (programImportsModule(context.sourceCode.ast, AI_NODE_SDK)) return {};
	return {
		Property(node) {
			if (
				node.key.type === AST_NODE_TYPES.Identifier &&
				node.key.name === 'codex' &&
				node.value.type === AST_NODE_TYPES.ObjectExpression
			) {
				check(node.value);
			}
		},
	};
}

function endPastBlanks(sourceCode: TSESLint.SourceCode, end: number): number {
	const text = sourceCode.getText();
	while (end < text.length && (text[end] === ' ' || text[end] === '\t')) end++;
	return end;
}

/** Removes one element of a list (array elements or object properties) with the comma that goes with it. */
export function removeListItem(
	fixer: TSESLint.RuleFixer,
	sourceCode: TSESLint.SourceCode,
	items: readonly TSESTree.Node[],
	target: TSESTree.Node,
): TSESLint.RuleFix {
	if (items.length === 1) return fixer.remove(target);
	if (items.indexOf(target) === items.length - 1) {
		const before = sourceCode.getTokenBefore(target);
		return before ? fixer.removeRange([before.range[0], target.range[1]]) : fixer.remove(target);
	}
	const after = sourceCode.getTokenAfter(target);
	return after
		? fixer.removeRange([target.range[0], endPastBlanks(sourceCode, after.range[1])])
		: fixer.remove(target);
}
