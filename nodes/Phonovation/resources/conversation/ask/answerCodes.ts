// Answer codes that tell waiting questions to one number apart: chosen when asking, checked when delivering.
import { createHmac } from 'crypto';

import { questionRef, type Question, VARIANTS } from '../proof/questionRef';
import { isAnswered } from '../proof/settledRelays';
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

/** Where the codes of a number's questions are judged: the number, now, the secret, this question's references. */
export interface CodeContext {
	msisdn: string;
	now: number;
	secret: string;
	/** Every reference this question may take (variantsOf): its own rows hold no rival code. */
	mine: Set<string>;
}

/** Questions to the number that may still wait for a reply: not expired, not answered, not a receipt, not this one. */
function othersWaiting(questions: LoggedQuestion[], { msisdn, now, mine }: CodeContext) {
	return questions.filter(
		(q) =>
			q.phone === msisdn &&
			q.waitsFor !== 'receipt' &&
			!isAnswered(q) &&
			!mine.has(q.reference) &&
			!(q.expiresAt && Date.parse(q.expiresAt) <= now),
	);
}

/** The codes that questions to the number still waiting hold. */
export function codesHeld(questions: LoggedQuestion[], context: CodeContext): Set<string> {
	const held = othersWaiting(questions, context).map((q) => q.reference);
	return new Set(held.map((reference) => answerCodeOf(reference, context.secret)));
}

/**
 * A question still waiting, asked before this one (by time, then reference: both askers agree),
 * whose code this one drew: two asked at once, each before the other was logged. The later yields.
 */
export function earlierWithCode(
	questions: LoggedQuestion[],
	asked: { reference: string; askedAt: string },
	context: CodeContext,
): LoggedQuestion | undefined {
	const code = answerCodeOf(asked.reference, context.secret);
	const before = (q: LoggedQuestion) =>
		q.askedAt < asked.askedAt || (q.askedAt === asked.askedAt && q.reference < asked.reference);
	return othersWaiting(questions, context).find(
		(q) => before(q) && answerCodeOf(q.reference, context.secret) === code,
	);
}

/** The first `count` Notify IDs this question may take, variant 0 first; empty when they cannot fit. */
export function variantsOf(question: Question, secret: string, count = VARIANTS): string[] {
	const refs: string[] = [];
	for (let variant = 0; variant < count; variant++) {
		const ref = questionRef(question, secret, variant);
		if (ref === undefined) return [];
		refs.push(ref);
	}
	return refs;
}

/**
 * The question's Notify ID whose code no waiting question holds: `preferred` (an earlier attempt's)
 * while its code is free, else the first free one. Were all 16 taken (some hundreds waiting at
 * once), `preferred` or the first: Deliver Reply then refuses an answer both could take.
 */
export function withFreeCode(
	variants: string[],
	held: Set<string>,
	secret: string,
	preferred?: string,
): string {
	const free = (ref: string) => !held.has(answerCodeOf(ref, secret));
	const earlier = preferred !== undefined && variants.includes(preferred) ? preferred : undefined;
	if (earlier !== undefined && free(earlier)) return earlier;
	return variants.find(free) ?? earlier ?? variants[0];
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
	// A row copied whole is still one question.
	for (const reference of new Set(references)) {
		const code = answerCodeOf(reference, secret);
		byCode.set(code, [...(byCode.get(code) ?? []), reference]);
	}
	for (const [code, sharing] of byCode)
		if (sharing.length > 1 && withoutCode(text, code) !== null)
			return { code, references: sharing };
	return null;
}
