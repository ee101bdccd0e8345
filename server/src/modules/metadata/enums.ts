import type { z } from 'zod';
import type { Culture } from '../../i18n/messages.js';
import { ENUM_CATALOGUE, type EnumEntry } from './enum-catalogue.js';
import { labelIn } from './enum-labels.js';
import type { enumMetadata } from './schemas.js';

type EnumMetadata = z.infer<typeof enumMetadata>;

export function describeEnum(entry: EnumEntry, culture: Culture): EnumMetadata {
  return {
    enumTypeName: entry.typeName,
    fullName: entry.fullName,
    displayName: labelIn(entry.displayName, culture),
    items: Object.entries(entry.values).map(([name, value]) => {
      const labels = entry.items[name];
      return { name, value, displayName: labels ? labelIn(labels, culture) : name };
    }),
  };
}

export const allEnums = (culture: Culture): EnumMetadata[] => ENUM_CATALOGUE.map((e) => describeEnum(e, culture));

/** By short name or full name, as the original accepts both. */
export function findEnum(name: string): EnumEntry | undefined {
  return ENUM_CATALOGUE.find((e) => e.typeName === name || e.fullName === name);
}
