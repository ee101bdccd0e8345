import { authedProcedure } from '../../rpc/trpc.js';
import {
  disableRequest,
  enableRequest,
  enableResult,
  recoveryCodesResult,
  regenerateRequest,
  sendSetupCodeRequest,
  sendSetupCodeResult,
  setupResult,
  twoFactorState,
} from './two-factor-schemas.js';

const REFUSED = 'Refused (403) while impersonating.';

/** Second-factor enrolment and recovery codes, merged into /api/Profile (profile/router.ts). */
export const twoFactorProcedures = {
  GetTwoFactorAsync: authedProcedure
    .meta({
      summary:
        "The caller's second factor: methods on (flags 1 TOTP, 2 e-mail, 4 phone), a pending authenticator setup, recovery codes left",
    })
    .output(twoFactorState)
    .query(({ ctx }) => ctx.services.twoFactorEnrolment.state(ctx)),

  Setup2FAAsync: authedProcedure
    .meta({
      summary:
        'Makes an authenticator (TOTP) secret: `sharedKey` (Base32) and `authenticatorUri` (otpauth://totp/<issuer>:<account>?secret=…&period=30&digits=6&issuer=…)',
      description: `The secret is stored sealed, not yet on, and answered again by later calls until Enable2FA turns TOTP on; with TOTP already on: 422. ${REFUSED}`,
    })
    .output(setupResult)
    .mutation(({ ctx }) => ctx.services.twoFactorEnrolment.setup(ctx)),

  Send2FASetupCodeAsync: authedProcedure
    .meta({
      summary:
        'Sends a 6-digit code (10 minutes) to the verified e-mail (`method` 2) or phone (4), for Enable2FA or Disable2FA',
      description: `TOTP (1) needs no code: 422. No verified contact of that kind: 422. One a minute per destination, 10 a day per destination, 50 a day per client address (429 + Retry-After). ${REFUSED}`,
    })
    .input(sendSetupCodeRequest)
    .output(sendSetupCodeResult)
    .mutation(({ ctx, input }) => ctx.services.twoFactorEnrolment.sendSetupCode(ctx, input.method)),

  Enable2FAAsync: authedProcedure
    .meta({
      summary:
        'Turns one second-factor method on (`method` 1, 2 or 4) given a right code of it; the first method on answers 10 recovery codes, shown only here',
      description: `TOTP needs Setup2FA first; e-mail and phone a verified contact and a code from Send2FASetupCode. A wrong code: 422; the fifth within 10 minutes bans code checks for 10 minutes (429). Every other session of the user ends; audited as MfaBound; the user is notified. ${REFUSED}`,
    })
    .input(enableRequest)
    .output(enableResult)
    .mutation(({ ctx, input }) => ctx.services.twoFactorEnrolment.enable(ctx, input.method, input.code)),

  Disable2FAAsync: authedProcedure
    .meta({
      summary: 'Turns one second-factor method off, given a right `code` of any method that is on, or the `password`',
      description: `A method already off: no change. The authenticator secret is wiped unless TOTP stays on; the recovery codes go with the last method. Every other session of the user ends; audited as MfaUnbound; the user is notified. ${REFUSED}`,
    })
    .input(disableRequest)
    .output(twoFactorState)
    .mutation(({ ctx, input }) => ctx.services.twoFactorEnrolment.disable(ctx, input.method, input)),

  RegenerateRecoveryCodesAsync: authedProcedure
    .meta({
      summary: 'Replaces the recovery codes with 10 new ones (`XXXX-XXXX`, one use each), shown only in this answer',
      description: `Password confirmed (422 when wrong; 5 attempts a minute, then 429); a second factor must be on (422). Audited as RecoveryCodesGenerated; the user is notified. ${REFUSED}`,
    })
    .input(regenerateRequest)
    .output(recoveryCodesResult)
    .mutation(({ ctx, input }) => ctx.services.twoFactorEnrolment.regenerateRecoveryCodes(ctx, input.password)),
};
