// The country calling codes a Default Country Code may take, as libphonenumber's metadata has them.
import { NUMBERINGS } from './numberingPlans';

/**
 * Country calling codes the ITU assigns to countries and territories (ITU-T E.164): the only values
 * a Default Country Code can take, those of libphonenumber's metadata (numberingPlans.generated.json).
 * Codes of global services (800, 808, 870, 878, 881, 882, 883, 888, 979) are not in it, since no
 * number is written nationally under them; nor are spare and withdrawn codes (35, 388, 671, 684,
 * 969, 999…), never anyone's country.
 */
export const COUNTRY_CALLING_CODES: ReadonlySet<string> = new Set(Object.keys(NUMBERINGS));
