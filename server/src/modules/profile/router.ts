import { z } from 'zod';
import { authedProcedure, router } from '../../rpc/trpc.js';
import { changePassword } from './password.js';
import { deactivateAccount, deleteAccount } from './account.js';
import { ownSession, passwordConfirmation, revokedCount, revokeSessionRequest } from './schemas.js';
import { listOwnSessions, revokeOtherSessions, revokeOwnSession } from './sessions.js';
import { createCredentialRequest, credentialIdRequest, credentialItem, credentialQueryId, credentialStatusRequest, issuedCredential } from '../credentials/schemas.js';
import { createCredential, deleteCredential, listCredentials, rotateCredentialSecret, updateCredentialStatus } from '../credentials/service.js';

/** /api/Profile: self-service of the signed-in user. */
export const profileRouter = router({
  ChangePasswordAsync: authedProcedure
    .meta({
      summary: 'Changes the password (old one checked; 8 to 128 characters; policy applies)',
      description: 'Reachable while the session is locked for a forced change, which it releases. Other sessions end.',
      allowWhileLocked: 'PasswordChangeRequired',
    })
    .input(z.object({ oldPassword: z.string().min(1).max(1024), newPassword: z.string().min(1).max(1024) }))
    .mutation(({ ctx, input }) => changePassword(ctx, ctx, ctx.auth, input.oldPassword, input.newPassword)),

  // API credentials for signed server-to-server calls (modules/credentials).
  GetApiCredentialsAsync: authedProcedure
    .meta({ summary: "The caller's API credentials (never a secret)" })
    .output(z.array(credentialItem))
    .query(({ ctx }) => listCredentials(ctx, ctx.auth)),

  CreateApiCredentialAsync: authedProcedure
    .meta({
      summary: 'Creates an API credential; the secret is shown only in this answer',
      description: 'At most 5 per user. Optional: signatureAlgorithm (HMACSHA256 default, HMACSHA512, RSASHA256 with publicKey), ipWhitelist, expirationTime. Refused while impersonating.',
    })
    .input(createCredentialRequest)
    .output(issuedCredential)
    .mutation(({ ctx, input }) => createCredential(ctx, ctx, ctx.auth, input)),

  RotateApiCredentialSecretAsync: authedProcedure
    .meta({ summary: 'Replaces the secret (the old one stops working at once); shown only in this answer', description: 'Refused while impersonating.' })
    .input(credentialIdRequest)
    .output(issuedCredential)
    .mutation(({ ctx, input }) => rotateCredentialSecret(ctx, ctx, ctx.auth, input.basicId)),

  UpdateApiCredentialStatusAsync: authedProcedure
    .meta({ summary: 'Enables or disables a credential (a disabled one is refused by the signature check at once)' })
    .input(credentialStatusRequest)
    .output(credentialItem)
    .mutation(({ ctx, input }) => updateCredentialStatus(ctx, ctx, ctx.auth, input.basicId, input.status)),

  DeleteApiCredentialAsync: authedProcedure
    .meta({ summary: 'Deletes a credential (`?id=`)' })
    .input(credentialQueryId)
    .mutation(({ ctx, input }) => deleteCredential(ctx, ctx, ctx.auth, input.id)),

  // The caller's own sessions (profile/sessions.ts).
  GetSessionsAsync: authedProcedure
    .meta({ summary: "The caller's live sessions (Active, unexpired), in every context: the current one first, then by latest activity", description: 'At most 500. `deviceType` is the original\'s DeviceType number.' })
    .output(z.array(ownSession))
    .query(({ ctx }) => listOwnSessions(ctx, ctx)),

  RevokeSessionAsync: authedProcedure
    .meta({ summary: 'Ends one of the caller\'s other sessions at once, on every node (its connections get a forced logout)', description: 'The current session is refused (422; log out instead); an unknown or another user\'s session answers 422 too. An own session already ended is not an error.' })
    .input(revokeSessionRequest)
    .mutation(({ ctx, input }) => revokeOwnSession(ctx, ctx, input.sessionId)),

  RevokeOtherSessionsAsync: authedProcedure
    .meta({ summary: 'Ends every session of the caller except the current one; answers how many ended' })
    .output(revokedCount)
    .mutation(({ ctx }) => revokeOtherSessions(ctx, ctx)),

  // The caller's own account (profile/account.ts), through the administrator's disable and delete code.
  DeactivateAccountAsync: authedProcedure
    .meta({
      summary: 'Disables the caller\'s account (password confirmed); every session ends, this one included',
      description: 'Wrong password: 422 (5 attempts a minute, then 429). Refused (422) for system accounts and tenant owners, and (403) while impersonating. The security stamp rotates; audited as AccountDeactivated.',
    })
    .input(passwordConfirmation)
    .mutation(({ ctx, input }) => deactivateAccount(ctx, ctx, input.password)),

  DeleteAccountAsync: authedProcedure
    .meta({
      method: 'POST',
      action: 'DeleteAccount',
      summary: 'Deletes the caller\'s account (soft; password confirmed); every session and connection ends, the user name and e-mail become free',
      description: 'Wrong password: 422 (5 attempts a minute, then 429). Refused (422) for system accounts and tenant owners, and (403) while impersonating. The security stamp rotates; audited as AccountDeleted.',
    })
    .input(passwordConfirmation)
    .mutation(({ ctx, input }) => deleteAccount(ctx, ctx, input.password)),
});
