/**
 * Codex rules: valid-node-categories (cases from upstream valid-node-categories.test.ts),
 * valid-codex-categories, no-ai-codex-category, no-codex-subcategories, no-logic-or-flow-nodes.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { noAiCodexCategory } from '../../lint/rules/no-ai-codex-category';
import { noCodexSubcategories } from '../../lint/rules/no-codex-subcategories';
import { noLogicOrFlowNodes } from '../../lint/rules/no-logic-or-flow-nodes';
import { findSimilarStrings, validCodexCategories } from '../../lint/rules/valid-codex-categories';
import { validNodeCategories } from '../../lint/rules/valid-node-categories';
import { KNOWN_CODEX_CATEGORIES } from '../../lint/codex';
import { asEslintRule, nodeClass, ruleTester } from './ruleTester';

const json = 'nodes/Example/Example.node.json';
const codex = (categories: unknown, extra: Record<string, unknown> = {}) =>
	JSON.stringify({ node: 'n8n-nodes-example', categories, ...extra });

ruleTester.run('valid-node-categories', asEslintRule(validNodeCategories), {
	valid: [
		{
			name: 'all supported community categories',
			filename: json,
			code: codex([
				'Data & Storage',
				'Finance & Accounting',
				'Marketing & Content',
				'Productivity',
				'Miscellaneous',
				'Sales',
				'Development',
				'Analytics',
				'Communication',
				'Utility',
			]),
		},
		{ name: 'our codex', filename: json, code: codex(['Communication']) },
		{ name: 'codex without categories', filename: json, code: '{ "node": "n8n-nodes-example" }' },
		{ name: 'unrelated JSON file', filename: 'package.json', code: codex(['Bananas']) },
		{
			name: 'non-node class',
			filename: 'nodes/Example/Example.node.ts',
			code: 'class Example { categories = ["Bananas"]; }',
		},
		{
			name: 'nested categories are not codex categories',
			filename: json,
			code: '{ "resources": { "categories": ["Bananas"] } }',
		},
		{
			name: 'AI with AI subcategories',
			filename: json,
			code: codex(['AI'], { subcategories: { AI: ['Tools'] } }),
		},
	],
	invalid: [
		{
			name: 'unknown category',
			filename: json,
			code: codex(['Development', 'Bananas']),
			errors: [{ messageId: 'invalidCategory', data: { category: 'Bananas' } }],
		},
		{
			name: 'old marketing category',
			filename: json,
			code: codex(['Marketing']),
			errors: [{ messageId: 'marketingCategory' }],
		},
		{
			name: 'invalid category type',
			filename: json,
			code: codex(['Sales', 12]),
			errors: [{ messageId: 'invalidCategoryType' }],
		},
		{
			name: 'categories must be an array',
			filename: json,
			code: codex('Sales'),
			errors: [{ messageId: 'invalidCategories' }],
		},
		{
			name: 'empty categories array',
			filename: json,
			code: codex([]),
			errors: [{ messageId: 'invalidCategories' }],
		},
		{
			name: 'AI without subcategories',
			filename: json,
			code: codex(['AI']),
			errors: [{ messageId: 'missingAiSubcategories' }],
		},
		{
			name: 'unknown AI subcategory',
			filename: json,
			code: codex(['AI'], { subcategories: { AI: ['Gadgets'] } }),
			errors: [{ messageId: 'invalidAiSubcategory', data: { subcategory: 'Gadgets' } }],
		},
		{
			name: 'inline description.codex in a .node.ts',
			filename: 'nodes/Example/Example.node.ts',
			code: nodeClass("codex: { categories: ['Bananas'] }, properties: [],"),
			errors: [{ messageId: 'invalidCategory' }],
		},
	],
});

ruleTester.run('valid-codex-categories', asEslintRule(validCodexCategories), {
	valid: [
		{
			name: 'known category',
			filename: 'X.node.ts',
			code: nodeClass("codex: { categories: ['Communication'] }, properties: [],"),
		},
		{
			name: 'AI node marked as Root Node',
			filename: 'X.node.ts',
			code: nodeClass(
				"codex: { categories: ['AI'], subcategories: { AI: ['Root Nodes'] } }, properties: [],",
			),
		},
		{ name: 'no codex', filename: 'X.node.ts', code: nodeClass('properties: [],') },
	],
	invalid: [
		{
			name: 'misspelt category with a suggestion',
			filename: 'X.node.ts',
			code: nodeClass("codex: { categories: ['Comunication'] }, properties: [],"),
			errors: [
				{
					messageId: 'unknownCategory',
					suggestions: [
						{
							messageId: 'didYouMean',
							data: { suggestedName: 'Communication' },
							output: nodeClass('codex: { categories: ["Communication"] }, properties: [],'),
						},
					],
				},
			],
		},
		{
			name: 'subcategories as a plain array',
			filename: 'X.node.ts',
			code: nodeClass(
				"codex: { categories: ['Utility'], subcategories: ['Helpers'] }, properties: [],",
			),
			errors: [{ messageId: 'invalidSubcategoriesShape' }],
		},
		{
			name: 'unknown subcategory key',
			filename: 'X.node.ts',
			code: nodeClass(
				"codex: { categories: ['Utility'], subcategories: { Bananas: ['Helpers'] } }, properties: [],",
			),
			errors: [{ messageId: 'unknownSubcategoryKey', data: { value: 'Bananas' } }],
		},
		{
			name: 'AI node with a main output but no Root Nodes',
			filename: 'X.node.ts',
			code: nodeClass(
				"codex: { categories: ['AI'], subcategories: { AI: ['Tools'] } }, properties: [],",
			),
			errors: [{ messageId: 'aiCategoryWithoutRootNodes' }],
		},
	],
});

const sdkDir = mkdtempSync(path.join(tmpdir(), 'codex-'));
mkdirSync(path.join(sdkDir, 'Sdk'));
writeFileSync(
	path.join(sdkDir, 'Sdk', 'Sdk.node.ts'),
	"import { x } from '@n8n/ai-node-sdk';\nexport const y = x;\n",
);
mkdirSync(path.join(sdkDir, 'Inline'));
writeFileSync(
	path.join(sdkDir, 'Inline', 'Inline.node.ts'),
	"export class Inline implements INodeType { description = { name: 'inline', codex: { categories: ['Utility'] } }; }\n",
);

ruleTester.run('no-ai-codex-category', asEslintRule(noAiCodexCategory), {
	valid: [
		{ name: 'no AI category', filename: json, code: codex(['Communication']) },
		{
			name: 'sibling .node.ts imports the AI Node SDK',
			filename: path.join(sdkDir, 'Sdk', 'Sdk.node.json'),
			code: codex(['AI']),
		},
		{
			name: 'sibling .node.ts sets description.codex inline (n8n ignores the JSON)',
			filename: path.join(sdkDir, 'Inline', 'Inline.node.json'),
			code: codex(['AI']),
		},
		{
			name: 'node that imports the SDK',
			filename: 'X.node.ts',
			code: `import { x } from '@n8n/ai-node-sdk';\n${nodeClass("codex: { categories: ['AI'] }, properties: [],")}`,
		},
	],
	invalid: [
		{
			name: 'AI in a .node.json',
			filename: json,
			code: '{ "node": "x", "categories": ["Utility", "AI"] }',
			output: '{ "node": "x", "categories": ["Utility"] }',
			errors: [{ messageId: 'aiCategoryNotAllowed' }],
		},
		{
			name: 'AI inline, first of two',
			filename: 'X.node.ts',
			code: nodeClass("codex: { categories: ['AI', 'Utility'] }, properties: [],"),
			output: nodeClass("codex: { categories: ['Utility'] }, properties: [],"),
			errors: [{ messageId: 'aiCategoryNotAllowed' }],
		},
	],
});

ruleTester.run('no-codex-subcategories', asEslintRule(noCodexSubcategories), {
	valid: [{ name: 'no subcategories', filename: json, code: codex(['Communication']) }],
	invalid: [
		{
			name: 'subcategories in a .node.json',
			filename: json,
			code: '{ "categories": ["Utility"], "subcategories": { "Utility": ["Helpers"] } }',
			output: '{ "categories": ["Utility"] }',
			errors: [{ messageId: 'subcategoriesNotAllowed' }],
		},
	],
});

ruleTester.run('no-logic-or-flow-nodes', asEslintRule(noLogicOrFlowNodes), {
	valid: [
		{ name: 'ordinary categories', filename: json, code: codex(['Communication']) },
		{ name: 'not a codex file', filename: 'package.json', code: codex(['Logic']) },
	],
	invalid: [
		{
			name: 'Logic category',
			filename: json,
			code: codex(['Logic']),
			errors: [{ messageId: 'logicOrFlowNode' }],
		},
		{
			name: 'Flow subcategory',
			filename: json,
			code: codex(['Utility'], { subcategories: { 'Core Nodes': ['Flow'] } }),
			errors: [{ messageId: 'logicOrFlowNode' }],
		},
	],
});

describe('findSimilarStrings', () => {
	it('suggests the closest known values within distance 3', () => {
		expect(findSimilarStrings('Comunication', KNOWN_CODEX_CATEGORIES)).toEqual(['Communication']);
		expect(findSimilarStrings('Bananas', KNOWN_CODEX_CATEGORIES)).toEqual([]);
	});
});
