import { z } from 'zod';
import { docOverrides, zIdOut } from '../../../rpc/wire.js';
import { loginToken, loginTwoFactorMethodInput } from '../schemas.js';

/** Request and response shapes of the self-service endpoints (SPEC shapes; the original service where SPEC is silent). */

const optionalText = (max: number) =>
  z
    .string()
    .max(max)
    .optional()
    .nullable()
    .transform((v) => v ?? undefined);

/** An e-mail address: trimmed, compared case-insensitively, at most 254 characters. */
export const emailInput = z.string().trim().toLowerCase().max(254).pipe(z.email());

/** A phone number: spaces, dashes, dots and parentheses are ignored; an optional + and 5 to 20 digits remain. */
export const phoneInput = z
  .string()
  .max(40)
  .transform((v) => v.replace(/[\s\-().]/g, ''))
  .pipe(z.string().regex(/^\+?\d{5,20}$/));
// Documented as accepted (separators included), not as the digits it becomes.
docOverrides.set(phoneInput, {
  type: 'string',
  maxLength: 40,
  pattern: '^[\\s().-]*\\+?(?:[\\s().-]*\\d){5,20}[\\s().-]*$',
  description: 'An optional + and 5 to 20 digits; spaces, dashes, dots and parentheses are ignored',
});

const secondFactorFields = {
  deviceId: optionalText(200),
  twoFactorTicket: optionalText(128),
  twoFactorMethod: loginTwoFactorMethodInput
    .optional()
    .nullable()
    .transform((v) => v ?? undefined),
  twoFactorCode: optionalText(16),
};

export const emailLoginCodeRequest = z.object({ email: emailInput });
export const phoneLoginCodeRequest = z.object({ phone: phoneInput });

export const loginCodeResponse = z.object({
  expiresInSeconds: z.number().int(),
  /** Development only: the code itself (never in production). */
  debugCode: z.string().optional(),
});

/** First stage: the address and its code. A later stage (second factor) sends the ticket instead of the code. */
export const emailLoginRequest = z.object({ email: emailInput, code: optionalText(12), ...secondFactorFields });
export const phoneLoginRequest = z.object({ phone: phoneInput, code: optionalText(12), ...secondFactorFields });
export type CodeLoginRequest = z.infer<typeof emailLoginRequest> | z.infer<typeof phoneLoginRequest>;

/** A second-factor challenge of a code or external login (no tokens yet). */
export const codeLoginChallenge = z.object({
  requiresTwoFactor: z.literal(true),
  availableTwoFactorMethods: z.array(z.enum(['totp', 'email', 'phone'])),
  twoFactorMethod: z.enum(['totp', 'email', 'phone']).nullable().optional(),
  codeSent: z.boolean(),
  twoFactorTicket: z.string(),
});
export type CodeLoginChallenge = z.infer<typeof codeLoginChallenge>;

/** A LoginToken, or (accounts with a second factor) a challenge to answer with the ticket. */
export const codeLoginResponse = z.union([loginToken, codeLoginChallenge]);

export const twoFactorLoginRequest = z.object({
  twoFactorTicket: z.string().min(1).max(128),
  twoFactorMethod: secondFactorFields.twoFactorMethod,
  twoFactorCode: secondFactorFields.twoFactorCode,
  deviceId: secondFactorFields.deviceId,
});

export const registerRequest = z.object({
  email: emailInput,
  password: z.string().min(1).max(1024),
  /** Optional: derived from the e-mail when absent. */
  username: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_.-]{3,50}$/)
    .optional()
    .nullable()
    .transform((v) => v ?? undefined),
  nickName: z
    .string()
    .trim()
    .max(64)
    .optional()
    .nullable()
    .transform((v) => v || undefined),
  phone: phoneInput
    .optional()
    .nullable()
    .or(z.literal(''))
    .transform((v) => v || undefined),
});

export const registerResponse = z.object({
  userId: zIdOut(),
  userName: z.string(),
  /** Always true: the account is inactive until the e-mail is verified. */
  requiresEmailVerification: z.boolean(),
  expiresInSeconds: z.number().int(),
  debugCode: z.string().optional(),
});

/** Either the mailed link's token, or the address and the mailed code. */
export const verifyEmailRequest = z.object({
  token: optionalText(256),
  email: emailInput
    .optional()
    .nullable()
    .transform((v) => v ?? undefined),
  code: optionalText(12),
});
export const verifyEmailResponse = z.object({ verified: z.boolean() });

export const emailOnlyRequest = z.object({ email: emailInput });
export const acceptedResponse = z.object({ accepted: z.boolean() });

export const consumeResetRequest = z.object({
  token: z.string().trim().min(1).max(256),
  newPassword: z.string().min(1).max(1024),
});
export const successResponse = z.object({ success: z.boolean() });
