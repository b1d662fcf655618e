/**
 * Local ESLint plugin: rules of the newest @n8n/eslint-plugin-community-nodes (n8n master) that the
 * pinned release (package.json devDependencies) does not have yet, ported under the same names in
 * the `@local/community-nodes` namespace. Loaded by eslint.config.mjs. When the pinned plugin gains
 * a rule, drop the local one and enable `@n8n/community-nodes/<name>` instead.
 */
import type { TSESLint } from '@typescript-eslint/utils';

import { credClassNameFieldConventions } from './rules/cred-class-name-field-conventions';
import { credClassNameSuffix } from './rules/cred-class-name-suffix';
import { credFilenameAgainstConvention } from './rules/cred-filename-against-convention';
import { hintMaxLength } from './rules/hint-max-length';
import { noAiCodexCategory } from './rules/no-ai-codex-category';
import { noAsteriskInOptionNames } from './rules/no-asterisk-in-option-names';
import { noCodexSubcategories } from './rules/no-codex-subcategories';
import { noDuplicateParamOptions } from './rules/no-duplicate-param-options';
import { noHardcodedIds } from './rules/no-hardcoded-ids';
import { noLogicOrFlowNodes } from './rules/no-logic-or-flow-nodes';
import { nodeClassDescriptionNameCamelcase } from './rules/node-class-description-name-camelcase';
import { nodeClassDescriptionNonCoreColor } from './rules/node-class-description-non-core-color';
import { nodeFilenameAgainstConvention } from './rules/node-filename-against-convention';
import { nodeOperationErrorItemindex } from './rules/node-operation-error-itemindex';
import { nonRequiredFieldsInCollection } from './rules/non-required-fields-in-collection';
import { openEndedNodeFields } from './rules/open-ended-node-fields';
import { optionsSortedAlphabetically } from './rules/options-sorted-alphabetically';
import { preferDeclarativeStyle } from './rules/prefer-declarative-style';
import { requireContinueOnFail } from './rules/require-continue-on-fail';
import { requireParamDefault } from './rules/require-param-default';
import { singleCredentialPerNode } from './rules/single-credential-per-node';
import { validCodexCategories } from './rules/valid-codex-categories';
import { validNodeCategories } from './rules/valid-node-categories';

export const NAMESPACE = '@local/community-nodes';

export const rules = {
	'cred-class-name-field-conventions': credClassNameFieldConventions,
	'cred-class-name-suffix': credClassNameSuffix,
	'cred-filename-against-convention': credFilenameAgainstConvention,
	'hint-max-length': hintMaxLength,
	'no-ai-codex-category': noAiCodexCategory,
	'no-asterisk-in-option-names': noAsteriskInOptionNames,
	'no-codex-subcategories': noCodexSubcategories,
	'no-duplicate-param-options': noDuplicateParamOptions,
	'no-hardcoded-ids': noHardcodedIds,
	'no-logic-or-flow-nodes': noLogicOrFlowNodes,
	'node-class-description-name-camelcase': nodeClassDescriptionNameCamelcase,
	'node-class-description-non-core-color': nodeClassDescriptionNonCoreColor,
	'node-filename-against-convention': nodeFilenameAgainstConvention,
	'node-operation-error-itemindex': nodeOperationErrorItemindex,
	'non-required-fields-in-collection': nonRequiredFieldsInCollection,
	'open-ended-node-fields': openEndedNodeFields,
	'options-sorted-alphabetically': optionsSortedAlphabetically,
	'prefer-declarative-style': preferDeclarativeStyle,
	'require-continue-on-fail': requireContinueOnFail,
	'require-param-default': requireParamDefault,
	'single-credential-per-node': singleCredentialPerNode,
	'valid-codex-categories': validCodexCategories,
	'valid-node-categories': validNodeCategories,
} satisfies Record<string, TSESLint.RuleModule<string, readonly unknown[]>>;

/** Severity as upstream sets it where known (problems error, suggestions warn; --max-warnings=0 fails on both). */
const recommendedRules = Object.fromEntries(
	Object.entries(rules).map(([name, rule]) => [
		`${NAMESPACE}/${name}`,
		rule.meta.type === 'problem' ? 'error' : 'warn',
	]),
) as Record<string, 'error' | 'warn'>;

export const localPlugin = {
	meta: { name: 'local-community-nodes', version: '0.0.0', namespace: NAMESPACE },
	rules,
	configs: {
		recommended: {
			plugins: {} as Record<string, unknown>,
			rules: recommendedRules,
		},
	},
};
localPlugin.configs.recommended.plugins[NAMESPACE] = localPlugin;
