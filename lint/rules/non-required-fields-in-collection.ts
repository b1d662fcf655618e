/**
 * Port of upstream `non-required-fields-in-collection`: a top-level node property that is not
 * required belongs in an "Additional Options"/"Additional Fields" collection. Selectors
 * (resource/operation/authentication), containers and display-only types are exempt, and so are
 * spread elements (not analysed) and a non-literal `required`.
 */
import {
	createNodeDescriptionVisitor,
	createRule,
	findObjectProperty,
	getBooleanLiteralValue,
	getStringProperty,
	getTopLevelParameters,
} from '../utils';

const CONTAINER_TYPES = new Set(['collection', 'fixedCollection']);
const NON_INPUT_TYPES = new Set(['notice', 'callout', 'hidden', 'curlImport']);
const SELECTOR_NAMES = new Set(['resource', 'operation', 'authentication']);

export const nonRequiredFieldsInCollection = createRule({
	name: 'non-required-fields-in-collection',
	meta: {
		type: 'suggestion',
		docs: {
			description:
				'Enforce that non-required node fields live in an "Additional Options" or "Additional Fields" collection',
		},
		messages: {
			nonRequiredFieldAtTopLevel:
				'"{{ field }}" is not required. Move it into an "Additional Options" or "Additional Fields" collection.',
		},
		schema: [],
	},
	defaultOptions: [],
	create(context) {
		return createNodeDescriptionVisitor(context, 'resolved', (description) => {
			for (const element of getTopLevelParameters(description)) {
				const name = getStringProperty(element, 'name');
				if (!name || SELECTOR_NAMES.has(name)) continue;
				const type = getStringProperty(element, 'type');
				if (type && (CONTAINER_TYPES.has(type) || NON_INPUT_TYPES.has(type))) continue;
				const required = findObjectProperty(element, 'required');
				// A non-literal `required` cannot be known here: treat it as required.
				if (required && getBooleanLiteralValue(required.value) !== false) continue;
				context.report({
					node: element,
					messageId: 'nonRequiredFieldAtTopLevel',
					data: { field: name },
				});
			}
		});
	},
});
