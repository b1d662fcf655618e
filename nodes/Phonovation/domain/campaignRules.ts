import { z } from 'zod';

/** Provider limits (service spec §2 and §8; recipient ceiling from the provider's sending guide). */
export const LIMITS = {
	text: 2000,
	from: 20,
	campaignName: 30,
	msisdn: 20,
	notifyId: 30,
	recipientsPerRequest: 400_000,
} as const;

/** A problem found before anything is sent: which parameter, and what is wrong with it. */
export interface RuleViolation {
	field: string;
	message: string;
}

const tooLong = (what: string, limit: number) => (value: string) =>
	value.length <= limit || {
		message: `${what} is too long: ${value.length} characters, the limit is ${limit}`,
	};

function limited(what: string, limit: number) {
	return z.string().superRefine((value, ctx) => {
		const verdict = tooLong(what, limit)(value);
		if (verdict !== true) ctx.addIssue({ code: z.ZodIssueCode.custom, message: verdict.message });
	});
}

/** What one campaign request carries apart from its recipients. */
export const campaignSettingsSchema = z.object({
	from: limited('Sender ID', LIMITS.from).refine((v) => v.trim() !== '', 'Sender ID is empty'),
	text: limited('Text', LIMITS.text).refine((v) => v.trim() !== '', 'Text is empty'),
	campaignName: limited('Campaign name', LIMITS.campaignName).optional(),
	batchSize: z
		.number({ invalid_type_error: 'Batch size must be a number' })
		.int('Batch size must be a whole number')
		.min(1, 'Batch size must be at least 1')
		.max(
			LIMITS.recipientsPerRequest,
			`Batch size is too large: the provider accepts at most ${LIMITS.recipientsPerRequest} recipients per request`,
		),
});

export const notifyIdSchema = limited('Notify ID', LIMITS.notifyId);

/** Runs a schema and turns its issues into field-named violations (empty when valid). */
export function violationsOf(schema: z.ZodTypeAny, value: unknown): RuleViolation[] {
	const result = schema.safeParse(value);
	if (result.success) return [];
	return result.error.issues.map((issue) => ({
		field: issue.path.length ? String(issue.path[0]) : '',
		message: issue.message,
	}));
}

/** The UTC wire format of `sendAt`: `yyyy-MM-ddTHH:mmZ`. */
export const SEND_AT_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}Z$/;
