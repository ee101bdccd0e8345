import { z } from 'zod';
import { defineMessages } from '../../i18n/messages.js';
import { zDate, zDateTimeOut, zIdOut } from '../../rpc/wire.js';

/**
 * Shapes of GetProfile / UpdateProfile / ChangeUserName (the original service names; the original
 * admin front end reads them). Gender and twoFactorMethod are int fields there, not enum names.
 */

/** An avatar given as a data URI is at most this long (about 190 KB of image); a URL at most 2048. */
export const AVATAR_DATA_URI_MAX = 262_144;
export const AVATAR_URL_MAX = 2048;

const DATA_URI = /^data:image\/(png|jpeg|gif|webp|svg\+xml);base64,[A-Za-z0-9+/]+={0,2}$/;

/** An http(s) URL, a path on this site (`/uploads/...`), or an image data URI; empty clears it. */
export function isAvatar(value: string): boolean {
  if (value === '') return true;
  if (value.startsWith('data:')) return value.length <= AVATAR_DATA_URI_MAX && DATA_URI.test(value);
  if (value.length > AVATAR_URL_MAX || /[\s<>"]/.test(value)) return false;
  if (value.startsWith('/')) return !value.startsWith('//');
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

const texts = defineMessages('validation', {
  invalidAvatar: {
    'zh-CN': '头像须为 http(s) 地址、站内路径或图片 data URI（不超过上限）',
    'zh-TW': '頭像須為 http(s) 位址、站內路徑或圖片 data URI（不超過上限）',
    'en-US': 'An avatar is an http(s) URL, a site path or an image data URI within the size limit',
    'ja-JP': 'アバターは http(s) URL、サイト内パス、または上限内の画像 data URI である必要があります',
    'ko-KR': '아바타는 http(s) URL, 사이트 경로 또는 크기 제한 내의 이미지 data URI여야 합니다',
    'de-DE': 'Ein Avatar ist eine http(s)-URL, ein Pfad der Website oder eine Bild-Data-URI innerhalb der Größengrenze',
    'hi-IN': 'अवतार एक http(s) URL, साइट पथ या आकार सीमा के भीतर छवि data URI होना चाहिए',
  },
});
// Issues name their text without the `validation.` namespace: errors/validation.ts adds it.
const INVALID_AVATAR = texts.invalidAvatar.slice('validation.'.length);

const text = (max: number) => z.string().trim().max(max).nullish();

export const updateProfileRequest = z.object({
  nickName: text(50),
  realName: text(50),
  avatar: z
    .string()
    .trim()
    .max(AVATAR_DATA_URI_MAX)
    .refine(isAvatar, { message: 'avatar', params: { i18n: INVALID_AVATAR } })
    .nullish()
    .meta({
      description: `An http(s) URL or a site path (at most ${AVATAR_URL_MAX} characters), or a base64 image data URI (png, jpeg, gif, webp, svg; at most ${AVATAR_DATA_URI_MAX} characters); empty or null clears it`,
    }),
  /** 0 unknown, 1 male, 2 female. */
  gender: z.number().int().min(0).max(2).nullish(),
  birthday: zDate().nullish(),
  country: text(50),
  remark: text(500),
});

export const profileOut = z.object({
  userId: zIdOut(),
  userName: z.string(),
  realName: z.string().nullable(),
  nickName: z.string().nullable(),
  avatar: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  gender: z.number().int(),
  birthday: z.string().nullable(),
  country: z.string().nullable(),
  remark: z.string().nullable(),
  /** The home tenant; null for a platform account. */
  tenantId: zIdOut().nullable(),
  lastLoginTime: zDateTimeOut().nullable(),
  lastLoginIp: z.string().nullable(),
  isSystemAccount: z.boolean(),
  twoFactorEnabled: z.boolean(),
  /** Flags: 1 TOTP, 2 e-mail, 4 phone; 0 when off. */
  twoFactorMethod: z.number().int(),
  /** One-use recovery codes left (0 without a second factor). */
  recoveryCodesRemaining: z.number().int(),
  emailVerified: z.boolean(),
  phoneVerified: z.boolean(),
  lastPasswordChangeTime: zDateTimeOut().nullable(),
  lastUserNameChangeTime: zDateTimeOut().nullable(),
  canChangeUserName: z.boolean(),
  isLocked: z.boolean(),
  lockoutEndTime: zDateTimeOut().nullable(),
  failedLoginAttempts: z.number().int(),
  lastFailedLoginTime: zDateTimeOut().nullable(),
});

export type ProfileOut = z.infer<typeof profileOut>;

export const changeUserNameRequest = z.object({
  // The pattern is checked by the service, which answers the original's 422 text.
  userName: z.string().trim().min(1).max(50),
  password: z.string().min(1).max(1024),
});
