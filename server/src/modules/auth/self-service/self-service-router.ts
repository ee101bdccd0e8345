import { z } from 'zod';
import { appError } from '../../../errors/app-error.js';
import { authedProcedure, publicProcedure } from '../../../rpc/trpc.js';
import { issueBindTicket } from '../../oauth/bind-ticket.js';
import { loginResponse } from '../schemas.js';
import { selfServiceErrors } from './self-service-errors.js';
import {
  acceptedResponse,
  codeLoginResponse,
  consumeResetRequest,
  emailLoginCodeRequest,
  emailLoginRequest,
  emailOnlyRequest,
  loginCodeResponse,
  phoneLoginCodeRequest,
  phoneLoginRequest,
  registerRequest,
  registerResponse,
  successResponse,
  twoFactorLoginRequest,
  verifyEmailRequest,
  verifyEmailResponse,
} from './self-service-schemas.js';

/**
 * The self-service procedures of /api/Auth (spread into the Auth router): one-time-code login,
 * registration and e-mail verification, password recovery and the OAuth bind ticket. Names
 * follow the derivation rules: no verb prefix, so each is a POST to /api/Auth/<name>, and
 * CreateOAuthBindTicketAsync is POST /api/Auth/OAuthBindTicket.
 */
export const selfServiceProcedures = {
  EmailLoginCodeAsync: publicProcedure
    .meta({
      summary: 'Mails a 6-digit sign-in code (10 minutes, one use)',
      description:
        'One request per e-mail and client address a minute (429 with Retry-After). An unknown address answers the same and nothing is sent. `debugCode` only in development.',
    })
    .input(emailLoginCodeRequest)
    .output(loginCodeResponse)
    .mutation(({ ctx, input }) => ctx.services.codeLogin.requestCode('email', input.email, ctx)),

  EmailLoginAsync: publicProcedure
    .meta({
      summary: 'Signs in with an e-mail code',
      description:
        'Answers a LoginToken, or for an account with a second factor a challenge (`requiresTwoFactor`, `twoFactorTicket`); the later stage posts email, twoFactorTicket, twoFactorMethod and twoFactorCode (no code). The code is consumed on read, right or wrong.',
    })
    .input(emailLoginRequest)
    .output(codeLoginResponse)
    .mutation(({ ctx, input }) => ctx.services.codeLogin.login('email', input.email, input, ctx)),

  PhoneLoginCodeAsync: publicProcedure
    .meta({
      summary: 'Texts a 6-digit sign-in code to a verified phone (10 minutes, one use)',
      description:
        'One request per number and client address a minute, 10 a day per number, 50 a day per address. An unknown or unverified number answers the same and nothing is sent.',
    })
    .input(phoneLoginCodeRequest)
    .output(loginCodeResponse)
    .mutation(({ ctx, input }) => ctx.services.codeLogin.requestCode('phone', input.phone, ctx)),

  PhoneLoginAsync: publicProcedure
    .meta({ summary: 'Signs in with a phone code', description: 'Same rules and answers as EmailLogin.' })
    .input(phoneLoginRequest)
    .output(codeLoginResponse)
    .mutation(({ ctx, input }) => ctx.services.codeLogin.login('phone', input.phone, input, ctx)),

  TwoFactorLoginAsync: publicProcedure
    .meta({
      summary: 'Completes a code or external login with its second factor',
      description:
        'Posts the ticket of a challenge (from EmailLogin, PhoneLogin or the OAuth callback) with twoFactorMethod and twoFactorCode. Without a code, e-mail and phone codes are sent again (one a minute per address and client address; texts 10 a day per number and 50 a day per client address; 429 with Retry-After). Throttled per client address.',
    })
    .input(twoFactorLoginRequest)
    .output(loginResponse)
    .mutation(async ({ ctx, input }) => {
      const result = await ctx.services.codeLogin.twoFactorLogin(input, ctx);
      return 'accessToken' in result ? { requiresTwoFactor: false, token: result } : { ...result, token: null };
    }),

  RegisterAsync: publicProcedure
    .meta({
      summary: 'Creates an account (inactive until its e-mail is verified)',
      description:
        'E-mail required; password 8 to 128 characters and the policy; duplicates answer 409. Mails a code and a link for VerifyEmail.',
    })
    .input(registerRequest)
    .output(registerResponse)
    .mutation(({ ctx, input }) => ctx.services.registration.register(input, ctx)),

  VerifyEmailAsync: publicProcedure
    .meta({ summary: 'Verifies a registered e-mail with the mailed link token, or the address and the mailed code' })
    .input(verifyEmailRequest)
    .output(verifyEmailResponse)
    .mutation(({ ctx, input }) => ctx.services.registration.verify(input, ctx)),

  ResendEmailVerificationAsync: publicProcedure
    .meta({
      summary: 'Mails a new verification code and link to an unverified account',
      description:
        'Always answers accepted; at most one mail per address a minute (repeats are answered the same and send nothing).',
    })
    .input(emailOnlyRequest)
    .output(acceptedResponse)
    .mutation(({ ctx, input }) => ctx.services.registration.resend(input.email, ctx)),

  PasswordResetRequestAsync: publicProcedure
    .meta({
      summary: 'Mails a password reset link (30 minutes, one use)',
      description: 'Always answers accepted, whether or not the address belongs to an account.',
    })
    .input(emailOnlyRequest)
    .output(acceptedResponse)
    .mutation(({ ctx, input }) => ctx.services.passwordReset.request(input.email, ctx)),

  ConsumePasswordResetTokenAsync: publicProcedure
    .meta({
      summary: 'Sets a new password with a reset token',
      description:
        'New password 8 to 128 characters and the policy. Voids the token, rotates the security stamp, revokes every session and audits PasswordReset.',
    })
    .input(consumeResetRequest)
    .output(successResponse)
    .mutation(({ ctx, input }) => ctx.services.passwordReset.consume(input.token, input.newPassword, ctx)),

  CreateOAuthBindTicketAsync: authedProcedure
    .meta({
      summary: 'A one-use ticket (5 minutes) to link an external account',
      description: 'Start the flow with GET /api/OAuth/ExternalLogin?provider=<name>&bindTicket=<ticket>.',
    })
    .output(z.string())
    .mutation(({ ctx }) => {
      if (ctx.auth.state.impersonatorUserId !== null) throw appError(selfServiceErrors.NOT_WHILE_IMPERSONATING);
      return issueBindTicket(ctx.deps.store, ctx.auth.userId);
    }),
};
