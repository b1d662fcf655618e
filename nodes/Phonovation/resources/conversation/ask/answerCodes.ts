// Answer codes that tell waiting questions to one number apart: chosen when asking, checked when delivering.
import { createHmac } from 'crypto';

import { questionRef, type Question, VARIANTS } from '../proof/questionRef';
import type { LoggedQuestion } from '../questionLog';

/** The four digits an answer to this question carries: from its Notify ID, keyed by the Relay Secret. */
export function answerCodeOf(notifyId: string, secret: string): string {
	const mac = createHmac('sha256', secret).update(`answer-code|${notifyId}`).digest();
	return String(mac.readUInt32BE(0) % 10_000).padStart(4, '0');
}

/**
 * The reply without the code, or null when it does not carry it: the code as a word of its own,
 * anywhere ("YES 4821", "4821 yes please").
 */
export function withoutCode(text: string, code: string): string | null {
	const pattern = new RegExp(`(^|[^0-9])${code}(?![0-9])`, 'u');
	if (!pattern.test(text)) return null;
	return text.replace(pattern, '$1').replace(/\s+/gu, ' ').trim();
}

/**
 * The codes that questions to `msisdn` still waiting hold (not expired, not settled, not waiting
 * for a receipt), leaving out `mine`: an earlier attempt of the question being asked.
 */
export function codesHeld(
	questions: LoggedQuestion[],
	{ msisdn, now, secret, mine }: { msisdn: string; now: number; secret: string; mine: Set<string> },
): Set<string> {
	const waiting = questions.filter(
		(q) =>
			q.phone === msisdn &&
			q.waitsFor !== 'receipt' &&
			!q.settledBy &&
			!mine.has(q.reference) &&
			!(q.expiresAt && Date.parse(q.expiresAt) <= now),
	);
	return new Set(waiting.map((q) => answerCodeOf(q.reference, secret)));
}

/** Every Notify ID this question may take, variant 0 first; empty when it cannot fit. */
export function variantsOf(question: Question, secret: string): string[] {
	const refs: string[] = [];
	for (let variant = 0; variant < VARIANTS; variant++) {
		const ref = questionRef(question, secret, variant);
		if (ref === undefined) return [];
		refs.push(ref);
	}
	return refs;
}

/**
 * The first of a question's Notify IDs whose code no waiting question holds. Were all 16 taken
 * (some hundreds waiting at once), the first: Deliver Reply then refuses an answer both could take.
 */
export function withFreeCode(variants: string[], held: Set<string>, secret: string): string {
	return variants.find((ref) => !held.has(answerCodeOf(ref, secret))) ?? variants[0];
}

/**
 * The code a reply carries that two or more of these questions share, with their references: such
 * an answer could decide the wrong one (two questions asked at once, each before the other was
 * logged), so it answers neither. Null when no code it carries is shared.
 */
export function sharedCodeIn(
	text: string,
	references: string[],
	secret: string,
): { code: string; references: string[] } | null {
	const byCode = new Map<string, string[]>();
	for (const reference of references) {
		const code = answerCodeOf(reference, secret);
		byCode.set(code, [...(byCode.get(code) ?? []), reference]);
	}
	for (const [code, sharing] of byCode)
		if (sharing.length > 1 && withoutCode(text, code) !== null)
			return { code, references: sharing };
	return null;
}
