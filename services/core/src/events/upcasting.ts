import type { PersonalDataRule } from './shredding';

/** One version step: data of schema version `n` → data of version `n + 1`. Pure. */
export type Upcaster = (data: unknown) => unknown;

export interface EventTypeDefinition {
  type: string;
  /** The version written now (default 1). */
  schemaVersion?: number;
  /** `upcasters[n]` turns version n into n + 1, for every n below schemaVersion. */
  upcasters?: Record<number, Upcaster>;
  /** Fields holding personal data, encrypted with the data subject's key (crypto-shredding). */
  personal?: PersonalDataRule[];
}

interface Definition {
  type: string;
  schemaVersion: number;
  upcasters: Record<number, Upcaster>;
  personal: PersonalDataRule[];
}

const definitions = new Map<string, Definition>();

/**
 * Declares an event type's schema version, upcasters and personal fields. Types that are
 * never declared are version 1 with no personal data. Declaring twice replaces.
 */
export function defineEventType(def: EventTypeDefinition): void {
  const schemaVersion = def.schemaVersion ?? 1;
  const upcasters = def.upcasters ?? {};
  for (let v = 1; v < schemaVersion; v++) {
    if (typeof upcasters[v] !== 'function') throw new Error(`event ${def.type}: no upcaster from version ${v}`);
  }
  definitions.set(def.type, { type: def.type, schemaVersion, upcasters, personal: def.personal ?? [] });
}

export function eventDefinition(type: string): Readonly<Definition> | undefined {
  return definitions.get(type);
}

/** The schema version new events of `type` are written with. */
export const currentSchemaVersion = (type: string) => definitions.get(type)?.schemaVersion ?? 1;

/** Applies the upcasters from the stored version up to the current one. */
export function upcast(type: string, storedVersion: number, data: unknown): { data: unknown; schemaVersion: number } {
  const def = definitions.get(type);
  if (!def || storedVersion >= def.schemaVersion) return { data, schemaVersion: storedVersion };
  let out = data;
  for (let v = storedVersion; v < def.schemaVersion; v++) out = def.upcasters[v]!(out);
  return { data: out, schemaVersion: def.schemaVersion };
}
