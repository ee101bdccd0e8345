import { z } from 'zod';
import de from 'zod/v4/locales/de.js';
import en from 'zod/v4/locales/en.js';
import hi from 'zod/v4/locales/hi.js';
import ja from 'zod/v4/locales/ja.js';
import ko from 'zod/v4/locales/ko.js';
import zhCN from 'zod/v4/locales/zh-CN.js';
import zhTW from 'zod/v4/locales/zh-TW.js';
import { fieldLabel } from '../i18n/field-labels.js';
import { defineMessages, translate, type Culture } from '../i18n/messages.js';
import { AppError } from './app-error.js';
import { commonErrors } from './common.js';

/**
 * Per-field validation detail, localized per request. zod drops the offending input from finished
 * issues; the global hook below keeps only its type name (never the value, which may be a
 * password) so that each culture's zod locale can describe the problem.
 */
z.config({
  customError(issue) {
    if (issue.code === 'invalid_type') (issue as Record<string, unknown>).received = typeName(issue.input);
    return undefined;
  },
});

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isNaN(value)) return 'nan';
  return typeof value;
}

const SAMPLE: Record<string, unknown> = {
  string: '',
  number: 0,
  bigint: 0n,
  boolean: false,
  object: {},
  array: [],
  null: null,
  nan: NaN,
  undefined,
};

const locales: Record<Culture, (issue: unknown) => string | undefined> = {
  'zh-CN': zhCN().localeError as never,
  'zh-TW': zhTW().localeError as never,
  'en-US': en().localeError as never,
  'ja-JP': ja().localeError as never,
  'ko-KR': ko().localeError as never,
  'de-DE': de().localeError as never,
  'hi-IN': hi().localeError as never,
};

const texts = defineMessages('validation', {
  invalidId: {
    'zh-CN': '不是有效的 64 位标识',
    'zh-TW': '不是有效的 64 位元識別碼',
    'en-US': 'Not a valid 64-bit id',
    'ja-JP': '有効な 64 ビット ID ではありません',
    'ko-KR': '유효한 64비트 ID가 아닙니다',
    'de-DE': 'Keine gültige 64-Bit-ID',
    'hi-IN': 'मान्य 64-बिट आईडी नहीं है',
  },
  invalidDateTime: {
    'zh-CN': '不是有效的日期时间（年份须在 0001 至 9999 之间）',
    'zh-TW': '不是有效的日期時間（年份須在 0001 至 9999 之間）',
    'en-US': 'Not a valid date-time (years 0001 to 9999)',
    'ja-JP': '有効な日時ではありません（年は 0001～9999）',
    'ko-KR': '유효한 날짜/시간이 아닙니다 (연도 0001~9999)',
    'de-DE': 'Kein gültiger Zeitpunkt (Jahre 0001 bis 9999)',
    'hi-IN': 'मान्य दिनांक-समय नहीं है (वर्ष 0001 से 9999)',
  },
  invalidEnum: {
    'zh-CN': '取值无效，可选：{allowed}',
    'zh-TW': '取值無效，可選：{allowed}',
    'en-US': 'Unknown value; allowed: {allowed}',
    'ja-JP': '不明な値です。使用可能: {allowed}',
    'ko-KR': '알 수 없는 값입니다. 허용: {allowed}',
    'de-DE': 'Unbekannter Wert; erlaubt: {allowed}',
    'hi-IN': 'अज्ञात मान; अनुमत: {allowed}',
  },
  // A pattern means nothing to the person who typed the value; the check is named, not shown.
  invalidFormat: {
    'zh-CN': '格式不正确',
    'zh-TW': '格式不正確',
    'en-US': 'Invalid format',
    'ja-JP': '形式が正しくありません',
    'ko-KR': '형식이 올바르지 않습니다',
    'de-DE': 'Ungültiges Format',
    'hi-IN': 'अमान्य प्रारूप',
  },
  labelled: {
    'zh-CN': '{label}：{message}',
    'zh-TW': '{label}：{message}',
    'en-US': '{label}: {message}',
    'ja-JP': '{label}: {message}',
    'ko-KR': '{label}: {message}',
    'de-DE': '{label}: {message}',
    'hi-IN': '{label}: {message}',
  },
  bodyRequired: {
    'zh-CN': '缺少请求体',
    'zh-TW': '缺少請求內容',
    'en-US': 'A request body is required',
    'ja-JP': 'リクエスト本文が必要です',
    'ko-KR': '요청 본문이 필요합니다',
    'de-DE': 'Ein Anfrageinhalt ist erforderlich',
    'hi-IN': 'अनुरोध का मुख्य भाग आवश्यक है',
  },
});

export interface FieldError {
  field: string;
  message: string;
}

interface IssueLike {
  code: string;
  path: ReadonlyArray<PropertyKey>;
  message: string;
  params?: Record<string, unknown>;
  received?: string;
  [key: string]: unknown;
}

function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || '$';
}

/** Issues from zod or any standard schema, rendered in the request's culture. */
export function validationDetail(
  issues: ReadonlyArray<IssueLike>,
  culture: Culture,
): Array<FieldError & { labelled: boolean }> {
  return issues.map((issue) => {
    const key = issue.params?.i18n;
    let message: string | undefined;
    if (typeof key === 'string') message = translate(culture, `validation.${key}`, issue.params);
    else if (issue.code === 'invalid_format' && issue.format === 'regex')
      message = translate(culture, texts.invalidFormat);
    else if (issue.code !== 'custom') {
      const input = issue.received !== undefined ? SAMPLE[issue.received] : undefined;
      try {
        message = locales[culture]({ ...issue, input });
      } catch {
        message = undefined;
      }
    }
    message ??= issue.message;
    const label = fieldLabel(culture, issue.path ?? []);
    return {
      field: fieldPath(issue.path ?? []),
      message: label ? translate(culture, texts.labelled, { label, message }) : message,
      labelled: label !== undefined,
    };
  });
}

export function bodyRequiredDetail(culture: Culture): FieldError[] {
  return [{ field: '$', message: translate(culture, texts.bodyRequired) }];
}

/** The 400 of a request that failed its schema, with one entry per field (the envelope's data). */
export function validationFailed(issues: ReadonlyArray<IssueLike>, culture: Culture): AppError {
  const described = validationDetail(issues, culture);
  // A message that names its field by label stands alone; otherwise the path says which field.
  const summary = described.map((d) => (d.labelled ? d.message : `${d.field}: ${d.message}`)).join('; ');
  const detail = described.map(({ field, message }) => ({ field, message }));
  return new AppError(commonErrors.VALIDATION_FAILED, { params: { summary }, detail });
}
