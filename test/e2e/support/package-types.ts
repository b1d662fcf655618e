/** Node and credential type names as n8n registers this community package's types. */
export const TYPES = {
	action: 'n8n-nodes-phonovation.phonovation',
	trigger: 'n8n-nodes-phonovation.phonovationTrigger',
	credential: 'phonovationApi',
} as const;
