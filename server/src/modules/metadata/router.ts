import { z } from 'zod';
import { appError } from '../../errors/app-error.js';
import { authedProcedure, router } from '../../rpc/trpc.js';
import { allEnums, describeEnum, findEnum } from './enums.js';
import { metadataErrors } from './errors.js';
import { enumByNameInput, enumMetadata, timeZoneOption } from './schemas.js';
import { timeZoneOptions } from './time-zones.js';

/**
 * /api/EnumMetadata: every enum the API writes with labels in the request's culture. Login
 * required and no permission code, as the original: every page's dictionaries come from here.
 */
export const enumMetadataRouter = router({
  GetAllEnumsAsync: authedProcedure
    .meta({ summary: 'Every enum the API writes: type name, member names, values and labels in the request culture' })
    .output(z.array(enumMetadata))
    .query(({ ctx }) => allEnums(ctx.culture)),
  GetEnumAsync: authedProcedure
    .meta({ summary: 'One enum by its short or full type name' })
    .input(enumByNameInput)
    .output(enumMetadata)
    .query(({ ctx, input }) => {
      const entry = findEnum(input.enumTypeName);
      if (!entry) throw appError(metadataErrors.ENUM_NOT_FOUND, { params: { name: input.enumTypeName } });
      return describeEnum(entry, ctx.culture);
    }),
});

/** /api/TimeZoneMetadata: the IANA zones the server resolves, for the time zone pickers. */
export const timeZoneMetadataRouter = router({
  GetTimeZoneOptionsAsync: authedProcedure
    .meta({
      summary:
        'IANA time zones with base UTC offset (minutes) and whether they observe daylight saving; UTC first, then by offset',
    })
    .output(z.array(timeZoneOption))
    .query(({ ctx }) => timeZoneOptions(ctx.deps.clock.now())),
});
