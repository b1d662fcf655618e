// The trigger's log allowance: 10 lines a minute for what strangers cause, another for the owner's.
/**
 * The trigger's log allowance: at most 10 lines a minute of what a stranger's request can cause,
 * and a separate allowance for what the owner must fix.
 */

/** Anyone who knows the webhook URL can cause these lines; a flood of requests must not flood n8n's log. */
export const LOG_LINES_PER_WINDOW = 10;
export const LOG_WINDOW_MS = 60_000;

interface RateLimitedLog {
	/**
	 * Writes `line` with `write` unless the window's allowance is spent; says what was dropped once the next window
	 * opens.
	 */
	(write: (line: string) => void, line: string): void;
}

/**
 * A log that lets through at most LOG_LINES_PER_WINDOW lines a minute, then drops the rest and
 * says how many it dropped with the first line of the next minute. `now` is injectable for tests.
 */
export function rateLimitedLog(now: () => number = Date.now): RateLimitedLog {
	let windowStart = -Infinity;
	let written = 0;
	let dropped = 0;
	return (write, line) => {
		const time = now();
		if (time - windowStart >= LOG_WINDOW_MS) {
			if (dropped > 0)
				write(
					`Phonovation Trigger: ${dropped} more such log lines were left out in the last minute`,
				);
			windowStart = time;
			written = 0;
			dropped = 0;
		}
		if (written < LOG_LINES_PER_WINDOW) {
			written++;
			write(line);
		} else {
			dropped++;
		}
	};
}

/** The allowance of this n8n process for lines a stranger's request can cause. */
export const requestCausedLog = rateLimitedLog();

/** A separate allowance for what the owner must fix (a missing Relay Secret), so junk cannot crowd it out. */
export const configurationLog = rateLimitedLog();
