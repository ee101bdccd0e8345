import { defineErrors } from '../../errors/app-error.js';

/** Failures of positions: another tenant's position is simply not found. */
export const positionErrors = defineErrors('position', {
  NOT_FOUND: {
    status: 404,
    text: {
      'zh-CN': '岗位 {id} 不存在或已删除。',
      'zh-TW': '職位 {id} 不存在或已刪除。',
      'en-US': 'Position {id} does not exist or was deleted.',
      'ja-JP': '役職 {id} は存在しないか、削除されています。',
      'ko-KR': '직위 {id}이(가) 없거나 삭제되었습니다.',
      'de-DE': 'Die Position {id} existiert nicht oder wurde gelöscht.',
      'hi-IN': 'पद {id} मौजूद नहीं है या हटा दिया गया है।',
    },
  },
});
