import { defineMessages } from '../i18n/messages.js';

/**
 * Validation texts of paged queries. They live under the `validation` namespace because issues
 * carrying `params.i18n` are rendered from `validation.<key>` (errors/validation.ts), the same
 * path every input validation failure takes.
 */
const keys = defineMessages('validation', {
  queryValueRequired: {
    'zh-CN': '该运算符需要提供 value',
    'zh-TW': '此運算子需要提供 value',
    'en-US': 'This operator needs a value',
    'ja-JP': 'この演算子には value が必要です',
    'ko-KR': '이 연산자에는 value가 필요합니다',
    'de-DE': 'Dieser Operator benötigt einen Wert (value)',
    'hi-IN': 'इस ऑपरेटर के लिए value आवश्यक है',
  },
  queryValuesRequired: {
    'zh-CN': '该运算符需要提供 values 数组',
    'zh-TW': '此運算子需要提供 values 陣列',
    'en-US': 'This operator needs a list of values',
    'ja-JP': 'この演算子には values 配列が必要です',
    'ko-KR': '이 연산자에는 values 배열이 필요합니다',
    'de-DE': 'Dieser Operator benötigt eine Werteliste (values)',
    'hi-IN': 'इस ऑपरेटर के लिए values सूची आवश्यक है',
  },
  queryBetweenValues: {
    'zh-CN': 'Between 需要恰好两个值（起始值和结束值）',
    'zh-TW': 'Between 需要恰好兩個值（起始值與結束值）',
    'en-US': 'Between needs exactly two values (from and to)',
    'ja-JP': 'Between にはちょうど 2 つの値（開始値と終了値）が必要です',
    'ko-KR': 'Between에는 정확히 두 개의 값(시작 값과 끝 값)이 필요합니다',
    'de-DE': 'Between benötigt genau zwei Werte (von und bis)',
    'hi-IN': 'Between के लिए ठीक दो मान (आरंभ और अंत) आवश्यक हैं',
  },
  queryInvalidText: {
    'zh-CN': '必须是文本',
    'zh-TW': '必須是文字',
    'en-US': 'Must be text',
    'ja-JP': 'テキストである必要があります',
    'ko-KR': '텍스트여야 합니다',
    'de-DE': 'Muss ein Text sein',
    'hi-IN': 'पाठ होना चाहिए',
  },
  queryInvalidInteger: {
    'zh-CN': '不是有效的整数',
    'zh-TW': '不是有效的整數',
    'en-US': 'Not a valid integer',
    'ja-JP': '有効な整数ではありません',
    'ko-KR': '유효한 정수가 아닙니다',
    'de-DE': 'Keine gültige Ganzzahl',
    'hi-IN': 'मान्य पूर्णांक नहीं है',
  },
  queryInvalidNumber: {
    'zh-CN': '不是有效的数字',
    'zh-TW': '不是有效的數字',
    'en-US': 'Not a valid number',
    'ja-JP': '有効な数値ではありません',
    'ko-KR': '유효한 숫자가 아닙니다',
    'de-DE': 'Keine gültige Zahl',
    'hi-IN': 'मान्य संख्या नहीं है',
  },
  queryInvalidBoolean: {
    'zh-CN': '不是有效的布尔值（true 或 false）',
    'zh-TW': '不是有效的布林值（true 或 false）',
    'en-US': 'Not a valid boolean (true or false)',
    'ja-JP': '有効な真偽値（true または false）ではありません',
    'ko-KR': '유효한 불리언 값(true 또는 false)이 아닙니다',
    'de-DE': 'Kein gültiger Wahrheitswert (true oder false)',
    'hi-IN': 'मान्य बूलियन मान (true या false) नहीं है',
  },
});

/** The `params.i18n` names of the texts above (the key without its `validation.` prefix). */
export type QueryMessage = keyof typeof keys;

/** Every registered key, for the catalogue test of this folder. */
export const queryMessageKeys: readonly string[] = Object.values(keys);
