import { unwrap } from '../envelope.js';
import type { OutputOf, RestClient } from '../rest-client.js';
import type { TokenStore } from './token-store.js';

/** A second-factor method. */
export type TwoFactorMethod = 'totp' | 'email' | 'phone';

/** What a later stage may answer the challenge with: a method, or one of the user's recovery codes. */
export type SecondFactorAnswer = TwoFactorMethod | 'recovery';

/** The first stage of a password login (SPEC LoginRequest without the second-factor fields). */
export interface LoginInput {
  /** E-mail (platform-wide identifier); platform accounts may use the user name. */
  username: string;
  password: string;
  /** Required when LoginConfig.captchaEnabled; consumed by the first stage only. */
  captchaId?: string;
  captchaCode?: string;
  /** Device fingerprint for multi-device session management. */
  deviceId?: string;
}

/** The token a login issues, as written on the wire. */
export type LoginToken = OutputOf<'AuthAppService.RefreshTokenAsync'>;

/** Logged in: the tokens are in the store. */
export interface SignedIn {
  status: 'signed-in';
  token: LoginToken;
}

/** The server wants a second factor before it issues tokens. */
export interface TwoFactorChallenge {
  status: 'two-factor';
  availableTwoFactorMethods: TwoFactorMethod[];
  /** The method the server chose or was asked for; null when the user must choose. */
  twoFactorMethod: TwoFactorMethod | null;
  /** True when an e-mail or SMS code was just sent. */
  codeSent: boolean;
  /**
   * The next stage. With a code: verifies it (signed in, or a PortcullisError). Without one: asks
   * the server to send a code for an e-mail or phone method, answered by a new challenge with
   * `codeSent` true. `'recovery'` with a recovery code (`XXXX-XXXX`, spent by this use) stands in
   * for any method. A two-factor-expired error means the ticket is gone: start again at `login`.
   */
  continue(method: SecondFactorAnswer, code?: string): Promise<LoginResult>;
}

/** What `login` answers. */
export type LoginResult = SignedIn | TwoFactorChallenge;

type Stage = LoginInput & { twoFactorMethod?: SecondFactorAnswer; twoFactorCode?: string; twoFactorTicket?: string };

/**
 * The password login of SPEC "Login flow". Every stage posts the credentials again; later stages
 * add the method, the code and the ticket of the first challenge, and leave the captcha out (it
 * was consumed by the first stage, and a ticket replaces it).
 */
export function createLoginFlow(rest: RestClient, store: TokenStore) {
  async function post(stage: Stage): Promise<LoginResult> {
    const { status, envelope } = await rest.send('AuthAppService.LoginAsync', stage);
    const data = unwrap(envelope, status);
    if (data.token) {
      await store.set({ accessToken: data.token.accessToken, refreshToken: data.token.refreshToken });
      return { status: 'signed-in', token: data.token };
    }
    const ticket = data.twoFactorTicket ?? stage.twoFactorTicket;
    const { username, password, deviceId } = stage;
    return {
      status: 'two-factor',
      availableTwoFactorMethods: data.availableTwoFactorMethods ?? [],
      twoFactorMethod: data.twoFactorMethod ?? null,
      codeSent: data.codeSent ?? false,
      continue: (method, code) =>
        post({ username, password, deviceId, twoFactorMethod: method, twoFactorCode: code, twoFactorTicket: ticket }),
    };
  }

  return {
    /** Starts a password login. Throws PortcullisError for a refusal (wrong password, captcha, 429 after retries). */
    login: (input: LoginInput): Promise<LoginResult> => post({ ...input }),
  };
}
