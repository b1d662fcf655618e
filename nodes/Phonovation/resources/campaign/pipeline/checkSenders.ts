// Each campaign's Sender ID checked against the account's approved list before any credit is spent.
import type { IExecuteFunctions } from 'n8n-workflow';

import { IRISH_COUNTRY_CODE } from '../../../domain/rules';
import { CredentialRefusedError } from '../../../transport/failures';
import type { SenderRecord } from '../../sender/senders';
import { fetchSenders, senderTypeLabel } from '../../sender/senders';
import type { Ledger } from './ledger';
import type { CampaignPlan, ItemViolation, Skip } from './plan';
import type { EntryOwner } from './recipients';
import { withSkipped } from './plan';

/** What the account's sender list says about one campaign. */
interface SenderCheck {
	violation?: ItemViolation;
	warnings: string[];
	/** An international (type 1) sender: Irish numbers are skipped with this. */
	irishSkip?: Skip;
}

const INTERNATIONAL = 1;

function senderCheckOf(
	plan: CampaignPlan,
	byName: Map<string, SenderRecord>,
	approved: string,
): SenderCheck {
	const itemIndex = plan.items[0]?.itemIndex ?? 0;
	const sender = byName.get(plan.settings.from);
	if (!sender) {
		const message = `Sender ID "${plan.settings.from}" is not approved on this account (approved: ${approved})`;
		return { violation: { field: 'from', message, itemIndex }, warnings: [] };
	}
	if (sender.type === INTERNATIONAL && sendsToIreland(plan)) {
		const reason = `Sender ID "${plan.settings.from}" is ${senderTypeLabel(INTERNATIONAL)}: the provider does not deliver it to Irish (353) numbers`;
		return {
			irishSkip: { kind: 'undeliverable', reason },
			warnings: [`${reason}; they were left out`],
		};
	}
	return { warnings: [] };
}

const isIrish = (msisdn: string) => msisdn.startsWith(IRISH_COUNTRY_CODE);

function sendsToIreland(plan: CampaignPlan): boolean {
	const { order, numbers } = plan.recipients;
	for (let p = 0; p < order.length; p++) if (isIrish(numbers.msisdns[order[p]]!)) return true;
	return false;
}

/** The items with a number left out as undeliverable. */
function withUndeliverable(plan: CampaignPlan): Set<EntryOwner> {
	const owners = new Set<EntryOwner>();
	for (const [entry, skip] of plan.recipients.skips)
		if (skip.kind === 'undeliverable') owners.add(plan.recipients.numbers.owner(entry));
	return owners;
}

type SenderList = { list: SenderRecord[] } | { unreadable: string } | { refused: string };

/** The account's sender list, or why it could not be had (a refused login is kept apart). */
async function senderList(ctx: IExecuteFunctions): Promise<SenderList> {
	try {
		return { list: await fetchSenders(ctx) };
	} catch (error) {
		const message = (error as Error).message;
		return error instanceof CredentialRefusedError ? { refused: message } : { unreadable: message };
	}
}

function violationsForAll(
	live: CampaignPlan[],
	field: string,
	message: (plan: CampaignPlan) => string,
) {
	const checks = new Map<CampaignPlan, SenderCheck>();
	for (const plan of live) {
		checks.set(plan, {
			violation: { field, message: message(plan), itemIndex: plan.items[0].itemIndex },
			warnings: [],
		});
	}
	return checks;
}

/**
 * Checks each campaign's sender against the account's approved sender IDs, with one request per
 * execution (none when the operation read the list), before any credit is spent (dry runs too).
 * It fails closed: a list that cannot be read stops the campaigns (an unapproved or
 * international-only sender would otherwise go out), and so does a refused login (their own
 * requests would be refused the same way).
 */
export async function checkSenders(
	ctx: IExecuteFunctions,
	plans: CampaignPlan[],
	ledger: Ledger,
	/** The list as the operation read it in this attempt, if it did. */
	known?: SenderRecord[],
): Promise<Map<CampaignPlan, SenderCheck>> {
	const checks = new Map<CampaignPlan, SenderCheck>();
	const live = plans.filter((p) => p.violations.length === 0 && p.items.length > 0);
	if (live.length === 0) return checks;
	// A retry uses the list the first attempt read, so it leaves out the same numbers. Nothing is
	// sent without a list, so a failure to read one is not remembered: a retry asks again.
	const fresh: SenderList = known ? { list: known } : await senderList(ctx);
	if ('refused' in fresh) return violationsForAll(live, 'credential', () => fresh.refused);
	const seen =
		'list' in fresh
			? ledger.firstLearned('senders', fresh)
			: (ledger.recall<SenderList>('senders') ?? fresh);
	if (!('list' in seen)) {
		const why = 'unreadable' in seen ? seen.unreadable : '';
		return violationsForAll(
			live,
			'from',
			(plan) =>
				`Could not read the account's sender list to check Sender ID "${plan.settings.from}" (${why}), so nothing was sent: an unapproved or international-only sender must not go out. Retry the run when the provider answers`,
		);
	}
	const byName = new Map(seen.list.map((s) => [s.name, s]));
	const approved = seen.list.map((s) => s.name).join(', ') || 'none';
	for (const plan of live) checks.set(plan, senderCheckOf(plan, byName, approved));
	return checks;
}

/**
 * The plan as the sender list leaves it: an unapproved sender is a violation; Irish numbers of an
 * international sender are skipped, or are a violation for items with Invalid Numbers = Fail.
 */
export function applySenderCheck(plan: CampaignPlan, check: SenderCheck | undefined): CampaignPlan {
	if (!check) return plan;
	if (check.violation) return plan.with({ violations: [...plan.violations, check.violation] });
	if (!check.irishSkip) return plan;
	const skipped = withSkipped(plan, isIrish, check.irishSkip);
	const undeliverable = withUndeliverable(skipped);
	const failing = skipped.items.filter((i) => i.failOnInvalid && undeliverable.has(i.owner));
	if (failing.length === 0) return skipped;
	const message = `${check.irishSkip.reason}; remove them or choose another sender`;
	const violations = failing.map((i) => ({ field: 'recipients', message, itemIndex: i.itemIndex }));
	return skipped.with({ violations: [...skipped.violations, ...violations] });
}
