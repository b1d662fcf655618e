/** ESLint's RuleTester with the TypeScript parser, for the local rules in lint/rules/. */
import type { Rule } from 'eslint';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';

export const ruleTester = new RuleTester({
	languageOptions: { parser: tseslint.parser, parserOptions: { extraFileExtensions: ['.json'] } },
});

/** The local rules are typed for typescript-eslint; ESLint's RuleTester takes them as they are. */
export function asEslintRule(rule: unknown): Rule.RuleModule {
	return rule as Rule.RuleModule;
}

/** A node class with the given description members and class body. */
export function nodeClass(
	descriptionMembers: string,
	classBody = '',
	className = 'TestNode',
): string {
	return `
import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

export class ${className} implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Test Node',
		name: 'testNode',
		group: ['output'],
		version: 1,
		description: 'Test node',
		defaults: { name: 'Test Node' },
		inputs: ['main'],
		outputs: ['main'],
		${descriptionMembers}
	};
	${classBody}
}`;
}
