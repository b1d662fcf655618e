// What Legacy Message Send shares with campaigns, and its only way into the pipeline (lint holds
// it to this file): Exclude Numbers read and worded as a campaign reads it, and the write-ahead
// record that keeps a retry from sending twice.
export { EXCLUDED, listedUnreadable } from './plan';
export { sameForEveryItem } from './readParameters';
export type { Skip } from './recipients';
export { type Suppression, SuppressionCache } from './suppression';
export { WriteAhead } from './writeAhead';
