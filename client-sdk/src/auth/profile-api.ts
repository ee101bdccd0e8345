import type { InputOf, OutputOf, RestClient } from '../rest-client.js';

type Out<K extends Parameters<RestClient['call']>[0]> = Promise<OutputOf<K>>;

/**
 * The caller's own profile, contacts, history, links, notification switches and UI settings
 * (`/api/Profile`, `/api/UserSetting`, `/api/UserSettingQuery`), typed by procedure. Contact
 * changes take two steps: `sendChangeEmailCode` then `confirmChangeEmail` with the code that was
 * sent to the new address.
 */
export function createProfileApi(rest: RestClient) {
  const done = async (promise: Promise<unknown>): Promise<void> => {
    await promise;
  };
  return {
    get: (): Out<'ProfileAppService.GetProfileAsync'> => rest.call('ProfileAppService.GetProfileAsync'),
    update: (input: InputOf<'ProfileAppService.UpdateProfileAsync'>): Out<'ProfileAppService.UpdateProfileAsync'> =>
      rest.call('ProfileAppService.UpdateProfileAsync', input),
    changeUserName: (userName: string, password: string) =>
      done(rest.call('ProfileAppService.ChangeUserNameAsync', { userName, password })),

    sendChangeEmailCode: (newEmail: string, password: string): Out<'ProfileAppService.SendChangeEmailCodeAsync'> =>
      rest.call('ProfileAppService.SendChangeEmailCodeAsync', { newEmail, password }),
    confirmChangeEmail: (code: string) => done(rest.call('ProfileAppService.ConfirmChangeEmailAsync', { code })),
    sendChangePhoneCode: (newPhone: string, password: string): Out<'ProfileAppService.SendChangePhoneCodeAsync'> =>
      rest.call('ProfileAppService.SendChangePhoneCodeAsync', { newPhone, password }),
    confirmChangePhone: (code: string) => done(rest.call('ProfileAppService.ConfirmChangePhoneAsync', { code })),
    sendEmailVerifyCode: (): Out<'ProfileAppService.SendEmailVerifyCodeAsync'> =>
      rest.call('ProfileAppService.SendEmailVerifyCodeAsync'),
    verifyEmail: (code: string) => done(rest.call('ProfileAppService.VerifyEmailAsync', { code })),
    sendPhoneVerifyCode: (): Out<'ProfileAppService.SendPhoneVerifyCodeAsync'> =>
      rest.call('ProfileAppService.SendPhoneVerifyCodeAsync'),
    verifyPhone: (code: string) => done(rest.call('ProfileAppService.VerifyPhoneAsync', { code })),

    loginLogs: (page = 1, pageSize = 10): Out<'ProfileAppService.GetLoginLogsAsync'> =>
      rest.call('ProfileAppService.GetLoginLogsAsync', { page, pageSize }),
    activity: (): Out<'ProfileAppService.GetActivityAsync'> => rest.call('ProfileAppService.GetActivityAsync'),

    linkedAccounts: (): Out<'ProfileAppService.GetLinkedAccountsAsync'> =>
      rest.call('ProfileAppService.GetLinkedAccountsAsync'),
    unlinkAccount: (provider: string) => done(rest.call('ProfileAppService.UnlinkAccountAsync', { provider })),

    notificationPreference: (): Out<'ProfileAppService.GetNotificationPreferenceAsync'> =>
      rest.call('ProfileAppService.GetNotificationPreferenceAsync'),
    updateNotificationPreference: (
      input: InputOf<'ProfileAppService.UpdateNotificationPreferenceAsync'>,
    ): Out<'ProfileAppService.UpdateNotificationPreferenceAsync'> =>
      rest.call('ProfileAppService.UpdateNotificationPreferenceAsync', input),

    getSetting: (
      settingKey: string,
      scene: 'Preference' | 'Page' = 'Preference',
    ): Out<'UserSettingQueryService.GetAsync'> => rest.call('UserSettingQueryService.GetAsync', { scene, settingKey }),
    saveSetting: (input: InputOf<'UserSettingAppService.SaveAsync'>): Out<'UserSettingAppService.SaveAsync'> =>
      rest.call('UserSettingAppService.SaveAsync', input),
  };
}

export type ProfileApi = ReturnType<typeof createProfileApi>;
