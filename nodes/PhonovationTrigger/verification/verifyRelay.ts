// Verifying a relay: its signature or URL token checked, and what its item says the check proved.
/**
 * Verification: what a relay proves, checked before anything beyond the fields its signature covers
 * is read. A form relay's SMS-Verify signature (by the recipe its signed fields name), a
 * processing result's URL token; and the verification its item carries (`verified`, and why not).
 */

import type { IDataObject } from 'n8n-workflow';

import type { FormFields } from '../incoming/formBody';
import type { RelayBody } from '../incoming/readBody';
import { notConfigured, unauthorized } from '../incoming/rejection';

import type { FormRecipe } from './recipe';
import { formRecipeOf } from './recipe';
import type { TriggerSecrets } from './secrets';
import { secretsMatch, verifyInboundSignature, verifyReceiptSignature } from './signature';

export interface VerifySettings {
	verifySignature: boolean;
	/** Whether receipts without a NotifyId are let through (marked unverified) instead of refused. */
	acceptUnlinkedReceipts: boolean;
}

export interface RelayAccess {
	/** The `token` query parameter as n8n parsed it (a string, an array or absent). */
	queryToken: unknown;
	secrets: () => Promise<TriggerSecrets>;
}

/** Said on a receipt without a NotifyId, accepted only when the node's option allows it. */
const UNLINKED_RECEIPT_HINT =
	'This receipt has no NotifyId. Its SMS-Verify is the same for every such receipt of your account, so it does not prove that this receipt is genuine.';

/**
 * A relay whose signature or token has been checked: a form relay by the recipe of its signature, or a
 * processing result by its URL token (its JSON parsed only then). `verification` holds the item
 * fields that say what the check proved: `verified`, and a `hint` on a receipt whose matching
 * signature proves nothing (receipt items have no other hint); none for a processing result.
 */
export type VerifiedRelay =
	| { authenticatedBy: FormRecipe; fields: FormFields; verification: IDataObject }
	| { authenticatedBy: 'token'; value: IDataObject; verification: IDataObject };

async function verifyFormRelay(recipe: FormRecipe, fields: FormFields, access: RelayAccess) {
	const { relaySecret } = await access.secrets();
	if (!relaySecret) {
		throw notConfigured(
			'the Phonovation credential has no Relay Secret: add it to the credential or turn off Verify Signature',
		);
	}
	const verify = fields.get('SMS-Verify')?.trim() ?? '';
	if (verify === '') throw unauthorized('missing SMS-Verify signature');
	// Absent fields hash as empty: the signature then fails, unless it was made over them that way.
	const genuine =
		recipe === 'receipt'
			? verifyReceiptSignature(
					{
						notifyId: fields.get('SMS-NotifyId') ?? '',
						success: fields.get('SMS-Success') ?? '',
						verify,
					},
					relaySecret,
				)
			: verifyInboundSignature(
					{ from: fields.get('SMS-From') ?? '', content: fields.get('SMS-Content') ?? '', verify },
					relaySecret,
				);
	if (!genuine) throw unauthorized('invalid SMS-Verify signature');
}

async function checkToken(access: RelayAccess): Promise<void> {
	const { urlToken } = await access.secrets();
	if (!urlToken) {
		throw notConfigured(
			'processing results carry no signature and no URL Token is set: add one to the Phonovation credential and ?token=YOUR_TOKEN to the URL given to Phonovation',
		);
	}
	const received = access.queryToken;
	if (typeof received !== 'string' || !secretsMatch(urlToken, received)) {
		throw unauthorized('missing or invalid URL token');
	}
}

/**
 * A receipt without a NotifyId is signed MD5(Success + secret): one value per account, so one
 * seen is enough to forge any number of them.
 */
function isUnlinked(fields: FormFields): boolean {
	return (fields.get('SMS-NotifyId') ?? '') === '';
}

/** Refuses an unlinked receipt unless the owner lets them through. */
function assertLinkedReceipt(fields: FormFields, settings: VerifySettings): void {
	if (!settings.verifySignature || settings.acceptUnlinkedReceipts) return;
	if (isUnlinked(fields)) {
		throw unauthorized(
			'delivery receipt without SMS-NotifyId: its signature is the same for every such receipt',
		);
	}
}

function verificationOf(
	recipe: FormRecipe,
	fields: FormFields,
	settings: VerifySettings,
): IDataObject {
	const unlinked = recipe === 'receipt' && isUnlinked(fields);
	if (unlinked && settings.verifySignature) return { verified: false, hint: UNLINKED_RECEIPT_HINT };
	return { verified: settings.verifySignature && !unlinked };
}

/**
 * Checks what a relay proves. A processing result's URL token is checked before its JSON is
 * parsed; a form relay's signature over only the fields it covers, after an unlinked receipt is
 * refused. Throws a RelayRejection (400 for a form that is no relay, 401 for a failed check).
 */
export async function verifyRelay(
	body: RelayBody,
	settings: VerifySettings,
	access: RelayAccess,
): Promise<VerifiedRelay> {
	if (body.kind === 'json') {
		await checkToken(access);
		return { authenticatedBy: 'token', value: body.value(), verification: {} };
	}
	const { fields } = body;
	const recipe = formRecipeOf(fields);
	if (recipe === 'receipt') assertLinkedReceipt(fields, settings);
	if (settings.verifySignature) await verifyFormRelay(recipe, fields, access);
	return {
		authenticatedBy: recipe,
		fields,
		verification: verificationOf(recipe, fields, settings),
	};
}
