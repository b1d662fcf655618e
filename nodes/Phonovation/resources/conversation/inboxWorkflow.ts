// Where a user imports the inbox workflow from: the copy this very version of the package ships.

/** For n8n's Import from URL; a test keeps its version equal to package.json's. */
export const INBOX_WORKFLOW_URL =
	'https://cdn.jsdelivr.net/npm/n8n-nodes-phonovation@0.1.0/examples/inbox/workflow.json';
