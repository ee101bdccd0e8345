import { z } from 'zod';

/** The original's EnumMetadataDto and EnumItemDto (Saas/Application/Dtos/Metadata). */
export const enumItem = z.object({
  name: z.string(),
  value: z.number().int(),
  displayName: z.string(),
  description: z.string().nullish(),
});

export const enumMetadata = z.object({
  enumTypeName: z.string(),
  fullName: z.string(),
  displayName: z.string(),
  items: z.array(enumItem),
});

export const enumByNameInput = z.object({ enumTypeName: z.string().trim().min(1).max(128) });

/** The original's TimeZoneOptionDto. */
export const timeZoneOption = z.object({
  id: z.string(),
  displayName: z.string(),
  baseUtcOffsetMinutes: z.number().int(),
  supportsDaylightSavingTime: z.boolean(),
});
