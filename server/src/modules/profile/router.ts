import { z } from 'zod';
import { authedProcedure, router } from '../../rpc/trpc.js';
import { changePassword } from './password.js';
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
    .mutation(({ ctx, input }) => changePassword(ctx.deps, ctx, ctx.auth, input.oldPassword, input.newPassword)),

  // API credentials for signed server-to-server calls (modules/credentials).
  GetApiCredentialsAsync: authedProcedure
    .meta({ summary: "The caller's API credentials (never a secret)" })
    .output(z.array(credentialItem))
    .query(({ ctx }) => listCredentials(ctx.deps, ctx.auth)),

  CreateApiCredentialAsync: authedProcedure
    .meta({
      summary: 'Creates an API credential; the secret is shown only in this answer',
      description: 'At most 5 per user. Optional: signatureAlgorithm (HMACSHA256 default, HMACSHA512, RSASHA256 with publicKey), ipWhitelist, expirationTime. Refused while impersonating.',
    })
    .input(createCredentialRequest)
    .output(issuedCredential)
    .mutation(({ ctx, input }) => createCredential(ctx.deps, ctx, ctx.auth, input)),

  RotateApiCredentialSecretAsync: authedProcedure
    .meta({ summary: 'Replaces the secret (the old one stops working at once); shown only in this answer', description: 'Refused while impersonating.' })
    .input(credentialIdRequest)
    .output(issuedCredential)
    .mutation(({ ctx, input }) => rotateCredentialSecret(ctx.deps, ctx, ctx.auth, input.basicId)),

  UpdateApiCredentialStatusAsync: authedProcedure
    .meta({ summary: 'Enables or disables a credential (a disabled one is refused by the signature check at once)' })
    .input(credentialStatusRequest)
    .output(credentialItem)
    .mutation(({ ctx, input }) => updateCredentialStatus(ctx.deps, ctx, ctx.auth, input.basicId, input.status)),

  DeleteApiCredentialAsync: authedProcedure
    .meta({ summary: 'Deletes a credential (`?id=`)' })
    .input(credentialQueryId)
    .mutation(({ ctx, input }) => deleteCredential(ctx.deps, ctx, ctx.auth, input.id)),
});
