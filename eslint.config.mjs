// n8n's community-node rules (the same sets its package scanner applies) on the shipped code:
// nodes/, credentials/ and package.json. test/ is tooling and may use node:http, process and timers.
import js from '@eslint/js';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';
import { register } from 'tsx/cjs/api';

// lint/plugin.ts: rules of the newest @n8n/eslint-plugin-community-nodes that the pinned release
// lacks, ported locally as `@local/community-nodes/<upstream name>` (tsx loads the TypeScript).
const { localPlugin } = register({ namespace: 'local-lint-rules' }).require(
	'./lint/plugin.ts',
	import.meta.url,
);
const local = localPlugin.configs.recommended;

const community = n8nCommunityNodesPlugin.configs.recommended;

export default tseslint.config(
	{
		ignores: [
			'dist/**',
			'node_modules/**',
			'test/e2e/node_modules/**',
			'.stryker-tmp/**',
			'reports/**',
			'coverage/**',
		],
	},
	{
		// Line length where Prettier (printWidth 100) does not decide: it breaks code, never a string
		// or a comment. Strings (descriptions, messages) may run on; comments wrap at 120.
		files: ['**/*.ts', '**/*.js', '**/*.cjs', '**/*.mjs'],
		languageOptions: { parser: tseslint.parser },
		linterOptions: { reportUnusedDisableDirectives: 'off' },
		rules: {
			'max-len': [
				'error',
				{
					code: 100,
					comments: 120,
					tabWidth: 2,
					ignoreStrings: true,
					ignoreTemplateLiterals: true,
					ignoreRegExpLiterals: true,
					ignoreUrls: true,
				},
			],
		},
	},
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		extends: [js.configs.recommended, tseslint.configs.recommended, community, local],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			'prefer-spread': 'off',
			'no-console': 'error',
		},
	},
	{
		files: ['package.json'],
		extends: [community],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: { ...n8nNodesBase.configs.community.rules },
		languageOptions: {
			parser: tseslint.parser,
			parserOptions: { extraFileExtensions: ['.json'] },
		},
	},
	{
		// Codex files: the local codex rules (valid-node-categories, no-logic-or-flow-nodes, ...) read them.
		files: ['nodes/**/*.node.json'],
		extends: [local],
		languageOptions: {
			parser: tseslint.parser,
			parserOptions: { extraFileExtensions: ['.json'] },
		},
	},
	{
		files: ['credentials/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
);
