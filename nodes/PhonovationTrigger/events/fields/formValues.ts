// A form relay's values for items: a field that must be there, and an empty one as null.
/** A form relay's values as items carry them: a field that must be there, and empty as null. */

import type { FormFields } from '../../incoming/formBody';
import { badRequest } from '../../incoming/rejection';

export function required(fields: FormFields, name: string): string {
	const value = fields.get(name);
	if (value === undefined) throw badRequest(`Missing field ${name}`);
	return value;
}

export function orNull(value: string | undefined): string | null {
	return value === undefined || value === '' ? null : value;
}
