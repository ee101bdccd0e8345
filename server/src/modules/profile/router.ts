import { z } from 'zod';
import { authedProcedure, router } from '../../rpc/trpc.js';
import { changePassword } from './password.js';

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
});
