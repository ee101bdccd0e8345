import { z } from 'zod';

/** Shapes of the contact operations (the original service: e-mail at most 100, phone at most 20). */

export const contactEmail = () => z.string().trim().max(100).pipe(z.email());
/** Stored without spaces and dashes, as phone login compares numbers (user/schemas.ts does the same). */
export const contactPhone = () =>
  z
    .string()
    .trim()
    .max(20)
    .regex(/^\+?[0-9][0-9 -]{2,19}$/, 'phone')
    .transform((v) => v.replace(/[\s-]/g, ''));

const password = z.string().min(1).max(1024);

export const sendChangeEmailCodeRequest = z.object({ newEmail: contactEmail(), password });
export const sendChangePhoneCodeRequest = z.object({ newPhone: contactPhone(), password });
/** Six digits; anything else is refused like a wrong code (and counts as one). */
export const contactCodeRequest = z.object({ code: z.string().trim().min(1).max(32) });
export const codeSent = z.object({ expiresInSeconds: z.number().int() });
