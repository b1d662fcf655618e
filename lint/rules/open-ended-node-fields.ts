/** Port of upstream `open-ended-node-fields`: a top-level `json` parameter must be required. */
import {
	createNodeDescriptionVisitor,
	createRule,
	getBooleanProperty,
	getStringProperty,
	getTopLevelParameters,
} from '../utils';

export const openEndedNodeFields = createRule({
	name: 'open-ended-node-fields',
	meta: {
		type: 'suggestion',
		docs: { description: 'Discourage optional open-ended JSON fields in node properties' },
		messages: {
			optionalJson:
				'Optional JSON fields can hide configuration. Use typed parameters under Additional Options or Additional Fields instead.',
		},
		schema: [],
	},
	defaultOptions: [],
	create(context) {
		return createNodeDescriptionVisitor(context, 'resolved', (description) => {
			for (const property of getTopLevelParameters(description)) {
				if (getStringProperty(property, 'type') !== 'json') continue;
				if (getBooleanProperty(property, 'required') === true) continue;
				context.report({ node: property, messageId: 'optionalJson' });
			}
		});
	},
});
