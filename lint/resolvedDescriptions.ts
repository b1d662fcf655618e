/**
 * The community rules read one file at a time: most of the action node's parameters are spread in
 * from `resources/`, where a description rule never sees them. This lints each node's description
 * as n8n gets it (built at runtime), written out as one node class in the node's own folder, with
 * the rules `npm run lint` uses on a node: the pinned community plugin's recommended set and
 * eslint-plugin-n8n-nodes-base's node rules.
 *
 * It first lints a copy with one miscased field added and requires that to be reported, so a
 * change that made the rules blind here fails too. Usage: tsx lint/resolvedDescriptions.ts
 */
import { ESLint, type Linter } from 'eslint';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import * as path from 'node:path';

import { Phonovation } from '../nodes/Phonovation/Phonovation.node';
import { PhonovationTrigger } from '../nodes/PhonovationTrigger/PhonovationTrigger.node';

const ROOT = path.resolve(__dirname, '..');

const eslint = new ESLint({
	cwd: ROOT,
	overrideConfigFile: true,
	overrideConfig: [
		{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } },
		{ files: ['**/*.ts'], ...n8nCommunityNodesPlugin.configs.recommended },
		{
			files: ['**/*.ts'],
			plugins: { 'n8n-nodes-base': n8nNodesBase },
			rules: n8nNodesBase.configs.nodes.rules,
		},
		{
			// About the class and its imports, which a description written out does not carry
			// (webhookMethods, NodeConnectionTypes): the file-by-file lint checks them.
			files: ['**/*.ts'],
			rules: {
				'@n8n/community-nodes/webhook-lifecycle-complete': 'off',
				'@n8n/community-nodes/node-connection-type-literal': 'off',
			},
		},
	] as Linter.Config[],
});

/** A value as a JavaScript literal with bare keys where they can be (the rules look for `icon:`, not `"icon":`). */
function literal(value: unknown, indent = '\t'): string {
	if (Array.isArray(value)) {
		return `[\n${value.map((v) => `${indent}\t${literal(v, `${indent}\t`)}`).join(',\n')}\n${indent}]`;
	}
	if (value !== null && typeof value === 'object') {
		const entries = Object.entries(value).map(([key, v]) => {
			const name = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
			return `${indent}\t${name}: ${literal(v, `${indent}\t`)}`;
		});
		return `{\n${entries.join(',\n')}\n${indent}}`;
	}
	return JSON.stringify(value) ?? 'undefined';
}

async function problemsOf(className: string, description: INodeTypeDescription): Promise<string[]> {
	const source = [
		"import type { INodeType, INodeTypeDescription } from 'n8n-workflow';",
		`export class ${className} implements INodeType {`,
		`\tdescription: INodeTypeDescription = ${literal(description)};`,
		'}',
	].join('\n');
	const filePath = path.join(ROOT, 'nodes', className, `${className}.node.ts`);
	const [result] = await eslint.lintText(source, { filePath });
	return result.messages.map((m) => `${className}: ${m.ruleId ?? 'parse'}: ${m.message}`);
}

async function main(): Promise<void> {
	const action = new Phonovation().description;
	const miscased: INodeProperties = {
		displayName: 'a miscased field',
		name: 'miscased',
		type: 'string',
		default: '',
	};
	const blind = await problemsOf('Phonovation', {
		...action,
		properties: [...action.properties, miscased],
	});
	if (!blind.some((p) => p.includes('node-param-display-name-miscased'))) {
		throw new Error(
			`resolved descriptions: a miscased field was not reported (${blind.join('; ')})`,
		);
	}
	const problems = [
		...(await problemsOf('Phonovation', action)),
		...(await problemsOf('PhonovationTrigger', new PhonovationTrigger().description)),
	];
	if (problems.length > 0) {
		for (const problem of problems) console.error(problem);
		process.exit(1);
	}
	console.log(
		`lint:descriptions: both nodes' whole descriptions (${action.properties.length} action parameters) pass the community rules`,
	);
}

void main().catch((error) => {
	console.error(error);
	process.exit(1);
});
