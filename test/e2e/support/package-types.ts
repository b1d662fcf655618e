/** Node and credential type names as n8n registers this community package's types. */
export const TYPES = {
	action: 'n8n-nodes-phonovation.phonovation',
	trigger: 'n8n-nodes-phonovation.phonovationTrigger',
	/** The action as an AI Agent's tool, and as its human review (n8n makes both from the action). */
	tool: 'n8n-nodes-phonovation.phonovationTool',
	review: 'n8n-nodes-phonovation.phonovationHitlTool',
	credential: 'phonovationApi',
} as const;
