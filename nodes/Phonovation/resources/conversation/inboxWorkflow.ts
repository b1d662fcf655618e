// Where a user imports the inbox workflow from: the npm package ships it (examples/inbox).

/** For n8n's Import from URL: the latest release's copy (the installed package holds the same file). */
export const INBOX_WORKFLOW_URL =
	'https://cdn.jsdelivr.net/npm/n8n-nodes-phonovation@latest/examples/inbox/workflow.json';
