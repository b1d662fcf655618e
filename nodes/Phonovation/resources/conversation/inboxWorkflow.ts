// Where a user imports the inbox workflow from: the npm package ships it (examples/inbox).

/** For n8n's Import ▸ From File: the file in the installed package, under n8n's user folder. */
export const INBOX_WORKFLOW_FILE =
	'~/.n8n/nodes/node_modules/n8n-nodes-phonovation/examples/inbox/workflow.json';

/** For n8n's Import ▸ From URL: the latest release's copy of the same file. */
export const INBOX_WORKFLOW_URL =
	'https://cdn.jsdelivr.net/npm/n8n-nodes-phonovation@latest/examples/inbox/workflow.json';
