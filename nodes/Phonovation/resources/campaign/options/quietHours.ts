// Quiet Hours: the daily window in which no text goes out, in its one written form, and its rule at every phase.
import {
	labelOf,
	movedOutOfQuietHours,
	quietHoursOf,
	sendAtOutsideQuietHours,
	sendAtWhenPosted,
} from '../../../domain/compliance';
import { zoneOfNumber } from '../../../domain/countryZones';
import { asText } from '../../../../shared/values';
import { canonicalWindow, hasOpenWindow, type QuietHours } from '../../../domain/quietHours';
import { type CampaignOption, canonical, refusal, type SendTimeRule } from './option';

const refused = refusal('quietHours');

/**
 * Quiet Hours with no time zone named are judged in the time zone of each recipient's country
 * (the workflow's for a country with several): the campaign waits until it is quiet in none.
 */
const ofCampaign: SendTimeRule<QuietHours>['ofCampaign'] = (quiet, moment, recipients) => {
	if (!quiet.byRecipient) return { judged: quiet, sendAt: moment.sendAt, warnings: [] };
	const zones = new Set<string>();
	let unplaced = 0;
	let any = false;
	for (const msisdn of recipients()) {
		any = true;
		const zone = zoneOfNumber(msisdn);
		if (zone) zones.add(zone);
		else unplaced++;
	}
	if (!any) return { judged: quiet, sendAt: moment.sendAt, warnings: [] };
	if (unplaced > 0) zones.add(quiet.zone);
	const warnings: string[] = [];
	if (unplaced > 0) {
		warnings.push(
			`Quiet Hours: ${unplaced} recipient(s) are in a country with no single time zone, so their Quiet Hours are judged in the workflow's (${quiet.zone}); set Quiet Hours Time Zone to choose one`,
		);
	}
	const judged = { ...quiet, zones: [...zones] };
	if (!hasOpenWindow(moment.now, judged, judged.zones)) {
		const violation = refused(
			`${labelOf(judged)} leave no time of day outside Quiet Hours in all of them, so no send time can be found; nothing was sent. Split the recipients by region or set Quiet Hours Time Zone`,
		);
		return { judged, sendAt: moment.sendAt, warnings, violation };
	}
	const sendAt = movedOutOfQuietHours(moment, judged, judged.zones, { warnings });
	return { judged, sendAt, warnings };
};

/** The rule at every phase: a row's send time, the campaign's recipients' zones, each request, the report. */
const rule: SendTimeRule<QuietHours> = {
	// Its window, and the zone Quiet Hours Time Zone contributes ('' when that option is not set).
	judgedBy: (settings, zone) =>
		quietHoursOf(
			{ quietWindow: asText(settings.quietWindow), quietZone: asText(settings.quietZone) },
			zone,
		),
	ofRow: sendAtOutsideQuietHours,
	ofCampaign,
	whenPosted: (quiet, planned, now) => sendAtWhenPosted({ ...planned, quiet }, now),
	reported: (quiet) => ({ quietHours: labelOf(quiet) }),
	movedWarning: (quiet, moved) =>
		`Quiet Hours ${labelOf(quiet)}: ${moved.requests} request(s) were about to be posted inside them, so they were scheduled for their end (sendAt ${moved.sendAt})`,
};

export const quietHours = {
	property: {
		displayName: 'Quiet Hours',
		type: 'string',
		default: '21:00-08:00',
		placeholder: '21:00-08:00',
		description:
			'Daily window (24-hour clock, local time) in which no text goes out: a Send inside it is scheduled for the end of the window, and so is a Schedule whose Send At falls inside it. The output says so in its warnings.',
	},
	read: canonical(canonicalWindow),
	settings: (window: string) => ({ quietWindow: window }),
	campaignKey: true,
	sendTime: rule as SendTimeRule,
} satisfies CampaignOption<string>;
