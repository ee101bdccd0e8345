import { z } from 'zod';
import { authedProcedure, router } from '../../rpc/trpc.js';
import { changePassword } from './password.js';
import { deactivateAccount, deleteAccount } from './account.js';
import { ownSession, passwordConfirmation, revokedCount, revokeSessionRequest } from './schemas.js';
import { listOwnSessions, revokeOtherSessions, revokeOwnSession } from './sessions.js';
import { twoFactorProcedures } from './two-factor-router.js';
import { activityOut, loginLogsRequest, ownLoginLogPage } from './history-schemas.js';
import { linkedAccount, notificationPreference, unlinkRequest, updateNotificationPreference } from './links-schemas.js';
import {
  codeSent,
  contactCodeRequest,
  sendChangeEmailCodeRequest,
  sendChangePhoneCodeRequest,
} from './contact-schemas.js';
import { changeUserNameRequest, profileOut, updateProfileRequest } from './profile-schemas.js';
import {
  createCredentialRequest,
  credentialIdRequest,
  credentialItem,
  credentialQueryId,
  credentialStatusRequest,
  issuedCredential,
} from '../credentials/schemas.js';
import {
  createCredential,
  deleteCredential,
  listCredentials,
  rotateCredentialSecret,
  updateCredentialStatus,
} from '../credentials/service.js';

/** /api/Profile: self-service of the signed-in user. */
export const profileRouter = router({
  // The caller's profile and user name (profile/profile-info.ts).
  GetProfileAsync: authedProcedure
    .meta({ summary: "The caller's profile (the original's fields; `gender` and `twoFactorMethod` are numbers)" })
    .output(profileOut)
    .query(({ ctx }) => ctx.services.profileInfo.get(ctx)),

  UpdateProfileAsync: authedProcedure
    .meta({
      summary: 'Updates nickName, realName, avatar, gender, birthday, country, remark; answers the profile',
      description:
        'An absent field keeps its value; null or empty text clears it. Lengths: names and country 50, remark 500; avatar an http(s) URL or site path (2048) or an image data URI (256 KiB). Audited as ProfileUpdated (field names only).',
    })
    .input(updateProfileRequest)
    .output(profileOut)
    .mutation(({ ctx, input }) => ctx.services.profileInfo.update(ctx, input)),

  ChangeUserNameAsync: authedProcedure
    .meta({
      summary:
        'Changes the user name (password confirmed): `^[A-Za-z0-9_]{3,30}$`, unique in the home tenant, once in 90 days',
      description:
        'Refused (422) for system accounts, a bad pattern, a taken or unchanged name, within 90 days of the last change and for a wrong password (5 attempts a minute, then 429); 403 while impersonating. Audited as UserNameChanged; a security notice follows.',
    })
    .input(changeUserNameRequest)
    .mutation(({ ctx, input }) => ctx.services.profileInfo.changeUserName(ctx, input)),

  ChangePasswordAsync: authedProcedure
    .meta({
      summary: 'Changes the password (old one checked; 8 to 128 characters; policy applies)',
      description: 'Reachable while the session is locked for a forced change, which it releases. Other sessions end.',
      allowWhileLocked: 'PasswordChangeRequired',
    })
    .input(z.object({ oldPassword: z.string().min(1).max(1024), newPassword: z.string().min(1).max(1024) }))
    .mutation(({ ctx, input }) => changePassword(ctx, ctx, ctx.auth, input.oldPassword, input.newPassword)),

  // The caller's e-mail and phone, two steps each (profile/contacts.ts).
  SendChangeEmailCodeAsync: authedProcedure
    .meta({
      summary:
        'Sends a code to a new e-mail address (password confirmed); the same answer whether the address is free or taken',
      description:
        'Whether another account uses the address is checked at ConfirmChangeEmail. Limits: one a minute per address and client, 10 a day per address, 50 a day per client (429 with Retry-After); a wrong password is 422 (5 a minute, then 429); 403 while impersonating; a failed send is 502 and leaves nothing usable.',
    })
    .input(sendChangeEmailCodeRequest)
    .output(codeSent)
    .mutation(({ ctx, input }) => ctx.services.contacts.sendChangeCode(ctx, 'email', input.newEmail, input.password)),

  ConfirmChangeEmailAsync: authedProcedure
    .meta({
      summary: 'Sets the new e-mail address (marked verified) with the code sent to it',
      description:
        'A wrong or expired code is 422 and spends it; the fifth wrong code in 10 minutes bars this step for 10 minutes (429). An address used by another account is 422 here. Audited as EmailChanged; a security notice goes to both addresses.',
    })
    .input(contactCodeRequest)
    .mutation(({ ctx, input }) => ctx.services.contacts.confirmChange(ctx, 'email', input.code)),

  SendChangePhoneCodeAsync: authedProcedure
    .meta({
      summary: 'Sends a code by text to a new phone number (password confirmed)',
      description:
        'Same limits and answers as SendChangeEmailCode; texts count toward the daily caps of every other text.',
    })
    .input(sendChangePhoneCodeRequest)
    .output(codeSent)
    .mutation(({ ctx, input }) => ctx.services.contacts.sendChangeCode(ctx, 'phone', input.newPhone, input.password)),

  ConfirmChangePhoneAsync: authedProcedure
    .meta({
      summary: 'Sets the new phone number (marked verified) with the code sent to it',
      description:
        'A number verified on another account is refused (422). Audited as PhoneChanged; a security notice follows.',
    })
    .input(contactCodeRequest)
    .mutation(({ ctx, input }) => ctx.services.contacts.confirmChange(ctx, 'phone', input.code)),

  SendEmailVerifyCodeAsync: authedProcedure
    .meta({
      summary: 'Sends a code to the current e-mail address',
      description: 'No address: 422. Limits as SendChangeEmailCode.',
    })
    .output(codeSent)
    .mutation(({ ctx }) => ctx.services.contacts.sendVerifyCode(ctx, 'email')),

  VerifyEmailAsync: authedProcedure
    .meta({
      summary: 'Marks the current e-mail address verified with its code',
      description: 'Audited as EmailVerified.',
    })
    .input(contactCodeRequest)
    .mutation(({ ctx, input }) => ctx.services.contacts.verify(ctx, 'email', input.code)),

  SendPhoneVerifyCodeAsync: authedProcedure
    .meta({
      summary: 'Sends a code by text to the current phone number',
      description: 'No number: 422. Limits as SendChangePhoneCode.',
    })
    .output(codeSent)
    .mutation(({ ctx }) => ctx.services.contacts.sendVerifyCode(ctx, 'phone')),

  VerifyPhoneAsync: authedProcedure
    .meta({
      summary:
        'Marks the current phone number verified with its code (what phone login and the phone second factor need)',
      description: 'A number verified on another account is refused (422). Audited as PhoneVerified.',
    })
    .input(contactCodeRequest)
    .mutation(({ ctx, input }) => ctx.services.contacts.verify(ctx, 'phone', input.code)),

  // The caller's history (profile/history.ts).
  GetLoginLogsAsync: authedProcedure
    .meta({
      summary: "The caller's login log, newest first (`?page=1&pageSize=10`; page 1 to 10000, pageSize 1 to 50)",
      description: 'Rows of every context the user signed in to; `loginResult` by name.',
    })
    .input(loginLogsRequest)
    .output(ownLoginLogPage)
    .query(({ ctx, input }) => ctx.services.history.loginLogs(ctx.auth.userId, input)),

  GetActivityAsync: authedProcedure
    .meta({
      summary:
        "The caller's activity: today, this week and this month (UTC), last sign-in, access and operation, and a sparse daily trend over 371 days",
      description:
        'loginCount: successful sign-ins; accessCount: login-log events; operationCount: audited changes made by the user; onlineTime (seconds) and onlineMinutes: session time from sign-in to the last activity.',
    })
    .output(activityOut)
    .query(({ ctx }) => ctx.services.history.activity(ctx.auth.userId)),

  // Linked external accounts and notification switches (profile/links.ts).
  GetLinkedAccountsAsync: authedProcedure
    .meta({ summary: "The caller's linked external accounts" })
    .output(z.array(linkedAccount))
    .query(({ ctx }) => ctx.services.links.linked(ctx.auth.userId)),

  UnlinkAccountAsync: authedProcedure
    .meta({
      summary: 'Unlinks the external account of a provider (case-insensitive)',
      description:
        'Refused (422) when it would leave no way to sign in: no other linked account, no real e-mail address (not the placeholder of accounts an external login created) and no verified phone with phone login on. Unknown provider: 422. Audited as ExternalLoginUnlinked.',
    })
    .input(unlinkRequest)
    .mutation(({ ctx, input }) => ctx.services.links.unlink(ctx, input.provider)),

  GetNotificationPreferenceAsync: authedProcedure
    .meta({ summary: "The caller's notification switches per channel and type (the original's defaults until saved)" })
    .output(notificationPreference)
    .query(({ ctx }) => ctx.services.links.preference(ctx.auth.userId)),

  UpdateNotificationPreferenceAsync: authedProcedure
    .meta({
      summary: 'Sets notification switches; an absent one keeps its value; answers all of them',
      description:
        'Security notices honour channelInApp, channelEmail and typeSecurity, except the ones that always go out: the forced password change, and a changed password, e-mail address or phone number. Audited as NotificationPreferenceChanged (the switches that changed).',
    })
    .input(updateNotificationPreference)
    .output(notificationPreference)
    .mutation(({ ctx, input }) => ctx.services.links.updatePreference(ctx, input)),

  // API credentials for signed server-to-server calls (modules/credentials).
  GetApiCredentialsAsync: authedProcedure
    .meta({ summary: "The caller's API credentials (never a secret)" })
    .output(z.array(credentialItem))
    .query(({ ctx }) => listCredentials(ctx, ctx.auth)),

  CreateApiCredentialAsync: authedProcedure
    .meta({
      summary: 'Creates an API credential; the secret is shown only in this answer',
      description:
        'At most 5 per user. Optional: signatureAlgorithm (HMACSHA256 default, HMACSHA512, RSASHA256 with publicKey), ipWhitelist, expirationTime. Refused while impersonating.',
    })
    .input(createCredentialRequest)
    .output(issuedCredential)
    .mutation(({ ctx, input }) => createCredential(ctx, ctx, ctx.auth, input)),

  RotateApiCredentialSecretAsync: authedProcedure
    .meta({
      summary: 'Replaces the secret (the old one stops working at once); shown only in this answer',
      description: 'Refused while impersonating.',
    })
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
    .meta({
      summary:
        "The caller's live sessions (Active, unexpired), in every context: the current one first, then by latest activity",
      description: "At most 500. `deviceType` is the original's DeviceType number.",
    })
    .output(z.array(ownSession))
    .query(({ ctx }) => listOwnSessions(ctx, ctx)),

  RevokeSessionAsync: authedProcedure
    .meta({
      summary: "Ends one of the caller's other sessions at once, on every node (its connections get a forced logout)",
      description:
        "The current session is refused (422; log out instead); an unknown or another user's session answers 422 too. An own session already ended is not an error.",
    })
    .input(revokeSessionRequest)
    .mutation(({ ctx, input }) => revokeOwnSession(ctx, ctx, input.sessionId)),

  RevokeOtherSessionsAsync: authedProcedure
    .meta({ summary: 'Ends every session of the caller except the current one; answers how many ended' })
    .output(revokedCount)
    .mutation(({ ctx }) => revokeOtherSessions(ctx, ctx)),

  // The caller's own account (profile/account.ts), through the administrator's disable and delete code.
  DeactivateAccountAsync: authedProcedure
    .meta({
      summary: "Disables the caller's account (password confirmed); every session ends, this one included",
      description:
        'Wrong password: 422 (5 attempts a minute, then 429). Refused (422) for system accounts and tenant owners, and (403) while impersonating. The security stamp rotates; audited as AccountDeactivated.',
    })
    .input(passwordConfirmation)
    .mutation(({ ctx, input }) => deactivateAccount(ctx, ctx, input.password)),

  DeleteAccountAsync: authedProcedure
    .meta({
      method: 'POST',
      action: 'DeleteAccount',
      summary:
        "Deletes the caller's account (soft; password confirmed); every session and connection ends, the user name and e-mail become free",
      description:
        'Wrong password: 422 (5 attempts a minute, then 429). Refused (422) for system accounts and tenant owners, and (403) while impersonating. The security stamp rotates; audited as AccountDeleted.',
    })
    .input(passwordConfirmation)
    .mutation(({ ctx, input }) => deleteAccount(ctx, ctx, input.password)),

  // Second-factor enrolment and recovery codes (profile/two-factor-router.ts).
  ...twoFactorProcedures,
});
