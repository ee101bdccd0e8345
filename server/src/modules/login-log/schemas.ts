import { z } from 'zod';
import { defineMessages } from '../../i18n/messages.js';
import { pagedRequest, pagedResponse } from '../../query/index.js';
import { defineEnum, zBool, zDateTime, zDateTimeOut, zId, zIdOut } from '../../rpc/wire.js';
import { LoginResult as LoginResultValues } from './write.js';

/**
 * The wire shapes of LoginLogQuery/LoginLogPage. Names follow the original's LoginLogPageQueryDto
 * and LoginLogListItemDto (XiHan.BasicApp), which its Vue admin page reads and sends:
 * `loginResult`, `os`, `loginTimeStart`/`loginTimeEnd`.
 */

/** The original's LoginResult numbering, written by name. */
export const LoginResult = defineEnum('LoginResult', LoginResultValues);

const texts = defineMessages('validation', {
  loginLogTimeRange: {
    'zh-CN': '登录开始时间不能晚于结束时间。',
    'zh-TW': '登入開始時間不能晚於結束時間。',
    'en-US': 'The login time start cannot be later than its end.',
    'ja-JP': 'ログイン開始時刻を終了時刻より後にすることはできません。',
    'ko-KR': '로그인 시작 시간은 종료 시간보다 늦을 수 없습니다.',
    'de-DE': 'Der Beginn des Anmeldezeitraums darf nicht nach seinem Ende liegen.',
    'hi-IN': 'लॉगिन प्रारंभ समय उसके अंत समय के बाद नहीं हो सकता।',
  },
});

// Issues name their text without the `validation.` namespace: errors/validation.ts adds it.
const TIME_RANGE = texts.loginLogTimeRange.slice('validation.'.length);

const optional = <T extends z.ZodType>(schema: T) => schema.nullish();
/** An earlier filter name: accepted, marked deprecated in the OpenAPI document. */
const earlier = <T extends z.ZodType>(schema: T, description: string) =>
  schema.nullish().meta({ deprecated: true, description });

export const loginLogPageRequest = pagedRequest({
  /** Shorthand for conditions.keyword (user name, address, browser, system, message, trace id). */
  keyword: optional(z.string().trim().max(200)),
  userId: optional(zId()),
  /** Contains, ignoring case. */
  userName: optional(z.string().trim().max(254)),
  sessionId: optional(zId()),
  traceId: optional(z.string().trim().max(128)),
  loginResult: optional(LoginResult.schema()),
  isRiskLogin: optional(zBool()),
  loginIp: optional(z.string().trim().max(64)),
  /** Both inclusive, as in the original; a start after the end is a 400. */
  loginTimeStart: optional(zDateTime()),
  loginTimeEnd: optional(zDateTime()),
  /** Earlier names, still honoured for existing clients (`endTime` keeps its exclusive meaning). */
  result: earlier(LoginResult.schema(), 'Earlier name of loginResult'),
  startTime: earlier(zDateTime(), 'Earlier name of loginTimeStart (inclusive)'),
  endTime: earlier(zDateTime(), 'Earlier, exclusive counterpart of loginTimeEnd'),
}).superRefine((v, ctx) => {
  const start = v.loginTimeStart ?? v.startTime;
  const end = v.loginTimeEnd ?? v.endTime;
  if (start && end && start > end) {
    ctx.addIssue({
      code: 'custom',
      path: [v.loginTimeStart ? 'loginTimeStart' : 'startTime'],
      message: 'range',
      params: { i18n: TIME_RANGE },
    });
  }
});

export const loginLogItem = z.object({
  basicId: zIdOut(),
  userId: zIdOut().nullable(),
  userName: z.string().nullable(),
  sessionId: zIdOut().nullable(),
  traceId: z.string().nullable(),
  loginTime: zDateTimeOut(),
  loginMethod: z.string().nullable(),
  loginIp: z.string().nullable(),
  loginLocation: z.string().nullable(),
  browser: z.string().nullable(),
  os: z.string().nullable(),
  loginResult: LoginResult.out(),
  message: z.string().nullable(),
  isRiskLogin: z.boolean(),
  /** The row is written at the attempt, so this is the login time (the original lists both). */
  createdTime: zDateTimeOut(),
});
export const loginLogPageResponse = pagedResponse(loginLogItem);
