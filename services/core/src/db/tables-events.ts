/** Tables of the event store and its projections (see docs/EVENTS.md). */
// biome-ignore lint/complexity/noBannedTypes: filled in by the event store
export type EventTables = {};
