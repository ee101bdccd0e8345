import { appError } from '../../errors/app-error.js';
import { defineMessages, translate, type Culture } from '../../i18n/messages.js';
import type { PasswordHasher } from '../../infra/password.js';
import { authErrors } from './errors.js';

/**
 * The password policy: 8 to 128 characters (SPEC); at least three of four character classes;
 * not a common password; not containing the user name or the e-mail's local part; not a run of
 * one repeated character; and not one of the last five passwords. Every failed item is listed.
 */

const items = defineMessages('passwordPolicy', {
  length: {
    'zh-CN': '长度须为 8-128 位',
    'zh-TW': '長度須為 8-128 位',
    'en-US': '8 to 128 characters',
    'ja-JP': '8～128 文字',
    'ko-KR': '8~128자',
    'de-DE': '8 bis 128 Zeichen',
    'hi-IN': '8 से 128 अक्षर',
  },
  classes: {
    'zh-CN': '至少包含大写字母、小写字母、数字、符号中的三类',
    'zh-TW': '至少包含大寫字母、小寫字母、數字、符號中的三類',
    'en-US': 'at least three of: upper-case, lower-case, digits, symbols',
    'ja-JP': '大文字・小文字・数字・記号のうち 3 種類以上',
    'ko-KR': '대문자, 소문자, 숫자, 기호 중 세 가지 이상',
    'de-DE': 'mindestens drei von: Großbuchstaben, Kleinbuchstaben, Ziffern, Sonderzeichen',
    'hi-IN': 'बड़े अक्षर, छोटे अक्षर, अंक, चिह्न में से कम से कम तीन',
  },
  common: {
    'zh-CN': '不能是常见密码',
    'zh-TW': '不能是常見密碼',
    'en-US': 'not a common password',
    'ja-JP': 'よく使われるパスワードは使用できません',
    'ko-KR': '흔한 비밀번호는 사용할 수 없습니다',
    'de-DE': 'kein gängiges Passwort',
    'hi-IN': 'सामान्य पासवर्ड नहीं',
  },
  personal: {
    'zh-CN': '不能包含用户名或邮箱',
    'zh-TW': '不能包含使用者名稱或電子郵件',
    'en-US': 'must not contain the user name or e-mail',
    'ja-JP': 'ユーザー名やメールアドレスを含めることはできません',
    'ko-KR': '사용자 이름이나 이메일을 포함할 수 없습니다',
    'de-DE': 'darf weder Benutzernamen noch E-Mail-Adresse enthalten',
    'hi-IN': 'उपयोगकर्ता नाम या ई-मेल शामिल नहीं होना चाहिए',
  },
  repeated: {
    'zh-CN': '不能由同一字符重复组成',
    'zh-TW': '不能由同一字元重複組成',
    'en-US': 'not one character repeated',
    'ja-JP': '同じ文字の繰り返しだけにはできません',
    'ko-KR': '한 문자만 반복할 수 없습니다',
    'de-DE': 'nicht nur ein wiederholtes Zeichen',
    'hi-IN': 'एक ही अक्षर की पुनरावृत्ति नहीं',
  },
  recent: {
    'zh-CN': '不能与最近 5 次使用过的密码相同',
    'zh-TW': '不能與最近 5 次使用過的密碼相同',
    'en-US': 'not one of your last 5 passwords',
    'ja-JP': '直近 5 回のパスワードは使用できません',
    'ko-KR': '최근 5개의 비밀번호는 사용할 수 없습니다',
    'de-DE': 'keines Ihrer letzten 5 Passwörter',
    'hi-IN': 'आपके पिछले 5 पासवर्ड में से कोई नहीं',
  },
});

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** Passwords anyone tries first (lower-cased); the built-in seed defaults are among them. */
const COMMON = new Set([
  'password',
  'password1',
  'password123',
  'passw0rd',
  'p@ssw0rd',
  'p@ssword1',
  '12345678',
  '123456789',
  '1234567890',
  'qwertyui',
  'qwerty123',
  'iloveyou',
  'admin123',
  'admin@123',
  'welcome1',
  'welcome@1',
  'abc12345',
  'abcd1234',
  '11111111',
  '00000000',
  'letmein1',
  'sunshine1',
  'superadmin@123',
  'portcullis@123',
  'changeme',
  'changeme1',
  'qwer1234',
  '1qaz2wsx',
  '1q2w3e4r',
  'zaq12wsx',
  'aa123456',
  'a1234567',
]);

export interface PolicyContext {
  userName?: string | null;
  email?: string | null;
  /** Hashes of the current and recent passwords (newest first). */
  recentHashes?: string[];
  /** Checks the password against recentHashes. */
  hasher?: Pick<PasswordHasher, 'verify'>;
}

/** The list of failed items (empty when the password is acceptable). */
export async function passwordPolicyFailures(
  password: string,
  context: PolicyContext,
): Promise<Array<keyof typeof items>> {
  const failures: Array<keyof typeof items> = [];
  const length = [...password].length;
  if (length < PASSWORD_MIN || length > PASSWORD_MAX) failures.push('length');
  const classes = [/[A-Z]/, /[a-z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((r) => r.test(password)).length;
  if (classes < 3) failures.push('classes');
  const lower = password.toLowerCase();
  if (COMMON.has(lower)) failures.push('common');
  const personal = [context.userName, context.email?.split('@')[0]].filter((p): p is string => !!p && p.length >= 3);
  if (personal.some((p) => lower.includes(p.toLowerCase()))) failures.push('personal');
  if (length > 0 && new Set(password).size === 1) failures.push('repeated');
  // Comparing with old hashes costs one verification each, so only an otherwise valid password pays it.
  if (failures.length === 0 && context.recentHashes?.length && context.hasher) {
    for (const hash of context.recentHashes.slice(0, 5)) {
      if ((await context.hasher.verify(hash, password)).ok) {
        failures.push('recent');
        break;
      }
    }
  }
  return failures;
}

/** Throws the policy error (400) listing the failed items in the request's culture. */
export async function assertPasswordPolicy(password: string, context: PolicyContext, culture: Culture): Promise<void> {
  const failures = await passwordPolicyFailures(password, context);
  if (failures.length === 0) return;
  const separator = culture.startsWith('zh') || culture === 'ja-JP' ? '；' : '; ';
  throw appError(authErrors.PASSWORD_POLICY, {
    params: { items: failures.map((f) => translate(culture, items[f])).join(separator) },
  });
}
