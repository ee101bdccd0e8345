import { defineErrors } from '../../errors/app-error.js';

export const metadataErrors = defineErrors('metadata', {
  ENUM_NOT_FOUND: {
    status: 404,
    text: {
      'zh-CN': '枚举类型 {name} 不存在。',
      'zh-TW': '列舉類型 {name} 不存在。',
      'en-US': 'Enum type {name} does not exist.',
      'ja-JP': '列挙型 {name} は存在しません。',
      'ko-KR': '열거형 {name}이(가) 없습니다.',
      'de-DE': 'Der Aufzählungstyp {name} existiert nicht.',
      'hi-IN': 'एनम प्रकार {name} मौजूद नहीं है।',
    },
  },
});
