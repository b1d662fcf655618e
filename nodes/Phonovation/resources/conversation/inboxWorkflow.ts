// The inbox workflow: where a user imports it from (the npm package ships it, examples/inbox), and
// the protocol it speaks with our nodes.
import type { IDataObject } from 'n8n-workflow';

/** For n8n's Import ▸ From File: the file in the installed package, under n8n's user folder. */
export const INBOX_WORKFLOW_FILE =
	'~/.n8n/nodes/node_modules/n8n-nodes-phonovation/examples/inbox/workflow.json';

/** For n8n's Import ▸ From URL: the latest release's copy of the same file. */
export const INBOX_WORKFLOW_URL =
	'https://cdn.jsdelivr.net/npm/n8n-nodes-phonovation@latest/examples/inbox/workflow.json';

/**
 * The protocol (actions, columns, answers) this package speaks with the inbox. The inbox puts it
 * on every item it hands back (`inboxProtocol`); every inbox before the handshake was protocol 1
 * and says nothing. Raise it whenever the inbox and our nodes must change together.
 */
export const INBOX_PROTOCOL = 3;

/** How to put the inbox of this package in place of the user's copy, keeping its id and rows. */
export const REIMPORT_STEPS = `open that workflow, select all its nodes and delete them, choose ⋯ ▸ Import ▸ From File with ${INBOX_WORKFLOW_FILE} (or Import ▸ From URL with ${INBOX_WORKFLOW_URL}), set your Sender, Settings and Assistant (in Deliver to Waiting Question) again, and publish it. Its Data Tables and their rows, waiting questions included, are kept, and the workflows that chose it keep it`;

/**
 * Null when the inbox's answer speaks this package's protocol; else what is wrong, for a user.
 * An answer always has an item (the inbox puts out one empty item when no row matched).
 */
export function protocolMismatch(answer: IDataObject[]): string | null {
	const spoken = answer.map((item) => item.inboxProtocol);
	if (spoken.length > 0 && spoken.every((protocol) => protocol === INBOX_PROTOCOL)) return null;
	const newer = spoken.find(
		(protocol): protocol is number => typeof protocol === 'number' && protocol > INBOX_PROTOCOL,
	);
	if (newer !== undefined)
		return `the workflow is an inbox of a newer n8n-nodes-phonovation (protocol ${newer}; this package speaks ${INBOX_PROTOCOL}): update the package in Settings ▸ Community Nodes, or import the inbox of the installed version`;
	return `the workflow is an inbox of an earlier n8n-nodes-phonovation, or not the inbox (it does not answer in inbox protocol ${INBOX_PROTOCOL}): this node stopped there, before texting or resuming anything more. Re-import the inbox of the installed package over it`;
}
