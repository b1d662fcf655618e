import type { IExecuteFunctions } from 'n8n-workflow';

import { IRISH_COUNTRY_CODE } from '../../../domain/rules';
import { CredentialRefusedError } from '../../../transport/failures';
import type { SenderRecord } from '../../sender/senders';
import { fetchSenders, senderTypeLabel } from '../../sender/senders';
import type { CampaignPlan, ItemViolation } from './plan';

/** What the account's sender list says about one campaign. */
export interface SenderVerdict {
	violation?: ItemViolation;
	warnings: string[];
}

function verdictFor(plan: CampaignPlan, byName: Map<string, SenderRecord>, approved: string): SenderVerdict {
	const itemIndex = plan.items[0].itemIndex;
	const sender = byName.get(plan.settings.from);
	if (!sender) {
		const message = `Sender ID "${plan.settings.from}" is not approved on this account (approved: ${approved})`;
		return { violation: { field: 'from', message, itemIndex }, warnings: [] };
	}
	if (sender.type === 1 && plan.toSend.some((r) => r.msisdn?.startsWith(IRISH_COUNTRY_CODE))) {
		return {
			warnings: [
				`Sender ID "${plan.settings.from}" is ${senderTypeLabel(1)}: the provider will not deliver it to the Irish (353) numbers in this campaign`,
			],
		};
	}
	return { warnings: [] };
}

/**
 * Checks each campaign's sender against the account's approved sender IDs, with one request per
 * execution, before any credit is spent. A list that cannot be fetched is a warning; a refused
 * login stops the campaigns (their own requests would be refused the same way).
 */
export async function checkSenders(ctx: IExecuteFunctions, plans: CampaignPlan[]): Promise<Map<CampaignPlan, SenderVerdict>> {
	const verdicts = new Map<CampaignPlan, SenderVerdict>();
	const live = plans.filter((p) => !p.settings.dryRun && p.violations.length === 0);
	if (live.length === 0) return verdicts;
	let senders: SenderRecord[];
	try {
		senders = await fetchSenders(ctx);
	} catch (error) {
		const message = (error as Error).message;
		for (const plan of live) {
			verdicts.set(
				plan,
				error instanceof CredentialRefusedError
					? { violation: { field: 'credential', message, itemIndex: plan.items[0].itemIndex }, warnings: [] }
					: { warnings: [`Could not check the sender ID against the account's list: ${message}`] },
			);
		}
		return verdicts;
	}
	const byName = new Map(senders.map((s) => [s.name, s]));
	const approved = senders.map((s) => s.name).join(', ') || 'none';
	for (const plan of live) verdicts.set(plan, verdictFor(plan, byName, approved));
	return verdicts;
}
