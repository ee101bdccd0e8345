import { z } from 'zod';

/**
 * Shapes of second-factor enrolment (the original service names). `method` is the original's
 * int flag, one method per call: 1 authenticator (TOTP), 2 e-mail, 4 phone.
 */

export const twoFactorMethodFlag = z.union([z.literal(1), z.literal(2), z.literal(4)]);
export type TwoFactorMethodFlag = z.infer<typeof twoFactorMethodFlag>;

const code = z.string().trim().min(1).max(16);

export const setupResult = z.object({
  /** The Base32 secret, for typing into an authenticator app. */
  sharedKey: z.string(),
  /** The same secret as an otpauth:// URI, for a QR code. */
  authenticatorUri: z.string(),
});

export const sendSetupCodeRequest = z.object({ method: twoFactorMethodFlag });
export const sendSetupCodeResult = z.object({ expiresInSeconds: z.number().int() });

export const enableRequest = z.object({ method: twoFactorMethodFlag, code });

/** Proof for turning a method off: a code of a method that is on, or the password. */
export const disableRequest = z
  .object({
    method: twoFactorMethodFlag,
    code: code.optional().nullable(),
    password: z.string().min(1).max(1024).optional().nullable(),
  })
  .refine((v) => !!v.code || !!v.password, { message: 'A code or the password is required', path: ['code'] });

export const twoFactorState = z.object({
  twoFactorEnabled: z.boolean(),
  /** Flags of the methods on (1 TOTP, 2 e-mail, 4 phone). */
  twoFactorMethod: z.number().int(),
  /** Setup2FA was called and the authenticator is not yet on. */
  totpSetupPending: z.boolean(),
  /** Unused recovery codes (0 while no method is on). */
  recoveryCodesRemaining: z.number().int(),
});
export type TwoFactorState = z.infer<typeof twoFactorState>;

export const enableResult = twoFactorState.extend({
  /** Made when the first method goes on: shown in this answer only, never again. */
  recoveryCodes: z.array(z.string()).nullable(),
});

export const regenerateRequest = z.object({ password: z.string().min(1).max(1024) });
export const recoveryCodesResult = z.object({ recoveryCodes: z.array(z.string()) });
