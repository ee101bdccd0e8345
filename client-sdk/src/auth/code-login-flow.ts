import { unwrap } from '../envelope.js';
import type { RestClient } from '../rest-client.js';
import type { LoginResult, SecondFactorAnswer } from './login-flow.js';
import type { TokenStore } from './token-store.js';

/** Sign-in by a code sent to the user's verified e-mail address. */
export interface EmailCodeLoginInput {
  email: string;
  code: string;
  deviceId?: string;
}

/** Sign-in by a code sent by text to the user's verified phone. */
export interface PhoneCodeLoginInput {
  phone: string;
  code: string;
  deviceId?: string;
}

type CodeLoginKey = 'AuthAppService.EmailLoginAsync' | 'AuthAppService.PhoneLoginAsync';
type Identity = { email: string } | { phone: string };
type Stage = Identity & {
  code?: string;
  deviceId?: string;
  twoFactorMethod?: SecondFactorAnswer;
  twoFactorCode?: string;
  twoFactorTicket?: string;
};

/**
 * The e-mail and phone code logins: the code replaces the password (and the captcha), then the
 * same second-factor stages as the password login follow, carried by the ticket of the first
 * challenge. Tokens go into the store exactly as after a password login.
 */
export function createCodeLoginFlow(rest: RestClient, store: TokenStore) {
  async function post(key: CodeLoginKey, stage: Stage): Promise<LoginResult> {
    const { status, envelope } = await rest.send(key, stage as never);
    const data = unwrap(envelope, status) as
      | {
          accessToken: string;
          refreshToken: string;
          tokenType: 'Bearer';
          expiresIn: number;
          issuedAt: string;
          expiresAt: string;
        }
      | {
          requiresTwoFactor: true;
          availableTwoFactorMethods: Array<'totp' | 'email' | 'phone'>;
          twoFactorMethod?: 'totp' | 'email' | 'phone' | null;
          codeSent: boolean;
          twoFactorTicket: string;
        };
    if ('accessToken' in data) {
      await store.set({ accessToken: data.accessToken, refreshToken: data.refreshToken });
      return { status: 'signed-in', token: data };
    }
    const identity: Identity = 'email' in stage ? { email: stage.email } : { phone: stage.phone };
    return {
      status: 'two-factor',
      availableTwoFactorMethods: data.availableTwoFactorMethods,
      twoFactorMethod: data.twoFactorMethod ?? null,
      codeSent: data.codeSent,
      continue: (method, code) =>
        post(key, {
          ...identity,
          deviceId: stage.deviceId,
          twoFactorMethod: method,
          twoFactorCode: code,
          twoFactorTicket: data.twoFactorTicket,
        }),
    };
  }

  return {
    /** Sends a sign-in code to the address (answered alike whether or not it has an account). */
    sendEmailCode: async (email: string): Promise<void> => {
      const { status, envelope } = await rest.send('AuthAppService.EmailLoginCodeAsync', { email });
      unwrap(envelope, status);
    },
    /** Sends a sign-in code by text to the number (answered alike whether or not it has an account). */
    sendPhoneCode: async (phone: string): Promise<void> => {
      const { status, envelope } = await rest.send('AuthAppService.PhoneLoginCodeAsync', { phone });
      unwrap(envelope, status);
    },
    emailLogin: (input: EmailCodeLoginInput): Promise<LoginResult> =>
      post('AuthAppService.EmailLoginAsync', { email: input.email, code: input.code, deviceId: input.deviceId }),
    phoneLogin: (input: PhoneCodeLoginInput): Promise<LoginResult> =>
      post('AuthAppService.PhoneLoginAsync', { phone: input.phone, code: input.code, deviceId: input.deviceId }),
  };
}
