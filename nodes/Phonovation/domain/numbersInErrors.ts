// The sent numbers a provider's error string names, however it writes them.

/**
 * Runs that look like a phone number, in any written form: `353871234567`, `+353 87 123 4567`, `0871234567`,
 * `00353-87…`.
 */
const NUMBER_LIKE = /\+?\d[\d \-().]{4,28}\d/g;

/**
 * The sent numbers an error string names, in whatever form it writes them: as sent, with `+`
 * or `00`, with spaces or dashes, or nationally (`087…` for `35387…`, matched when exactly one
 * sent number ends with it behind a one- to three-digit country code).
 */
export function numbersNamedIn(
	message: string,
	sent: Set<string | null>,
	sentList: readonly (string | null)[],
): string[] {
	const named = new Set<string>();
	for (const run of message.match(NUMBER_LIKE) ?? []) {
		// Two numbers with only a space between them read as one run: try the pieces too.
		const whole = sentNumberOf(run, sent, sentList);
		const found = whole
			? [whole]
			: run.split(/\s+/).map((piece) => sentNumberOf(piece, sent, sentList));
		for (const number of found) if (number) named.add(number);
	}
	return [...named];
}

/** The sent number `written` stands for, if exactly one. */
function sentNumberOf(
	written: string,
	sent: Set<string | null>,
	sentList: readonly (string | null)[],
): string | undefined {
	// A trunk 0 written by habit after the country code (`+353 (0)87…`) and a spreadsheet's `.0` are no digits.
	const digits = written.replace(/\(0\)/g, '').replace(/\.0+$/, '').replace(/\D/g, '');
	if (digits.length < 6) return undefined;
	const international = digits.startsWith('00') ? digits.slice(2) : digits;
	if (sent.has(international)) return international;
	if (!digits.startsWith('0') || digits.startsWith('00')) return undefined;
	const national = digits.slice(1);
	const matches = sentList.filter(
		(n) =>
			n !== null &&
			n.endsWith(national) &&
			n.length - national.length >= 1 &&
			n.length - national.length <= 3,
	);
	return matches.length === 1 ? matches[0]! : undefined;
}
