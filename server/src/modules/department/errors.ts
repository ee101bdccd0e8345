import { defineErrors } from '../../errors/app-error.js';

/**
 * Failures of the department tree. Missing departments answer 404 (another tenant's departments
 * are missing too, so a tenant learns nothing about its neighbours); rules that refuse a
 * well-formed request answer 422. Version conflicts use commonErrors.VERSION_CONFLICT (409).
 */
export const departmentErrors = defineErrors('department', {
  NOT_FOUND: {
    status: 404,
    text: {
      'zh-CN': '部门 {id} 不存在或已删除。',
      'zh-TW': '部門 {id} 不存在或已刪除。',
      'en-US': 'Department {id} does not exist or was deleted.',
      'ja-JP': '部門 {id} は存在しないか、削除されています。',
      'ko-KR': '부서 {id}이(가) 없거나 삭제되었습니다.',
      'de-DE': 'Die Abteilung {id} existiert nicht oder wurde gelöscht.',
      'hi-IN': 'विभाग {id} मौजूद नहीं है या हटा दिया गया है।',
    },
  },
  PARENT_NOT_FOUND: {
    status: 404,
    text: {
      'zh-CN': '上级部门 {parentId} 不存在或已删除。',
      'zh-TW': '上級部門 {parentId} 不存在或已刪除。',
      'en-US': 'The parent department {parentId} does not exist or was deleted.',
      'ja-JP': '上位部門 {parentId} は存在しないか、削除されています。',
      'ko-KR': '상위 부서 {parentId}이(가) 없거나 삭제되었습니다.',
      'de-DE': 'Die übergeordnete Abteilung {parentId} existiert nicht oder wurde gelöscht.',
      'hi-IN': 'मूल विभाग {parentId} मौजूद नहीं है या हटा दिया गया है।',
    },
  },
  PARENT_IS_SELF: {
    status: 422,
    text: {
      'zh-CN': '部门“{name}”不能作为自己的上级部门。',
      'zh-TW': '部門「{name}」不能作為自己的上級部門。',
      'en-US': 'Department "{name}" cannot be its own parent.',
      'ja-JP': '部門「{name}」を自身の上位部門にすることはできません。',
      'ko-KR': '부서 "{name}"은(는) 자기 자신을 상위 부서로 지정할 수 없습니다.',
      'de-DE': 'Die Abteilung „{name}“ kann sich nicht selbst übergeordnet sein.',
      'hi-IN': 'विभाग "{name}" स्वयं का मूल विभाग नहीं हो सकता।',
    },
  },
  PARENT_IS_DESCENDANT: {
    status: 422,
    text: {
      'zh-CN': '不能将部门“{name}”移动到其下级部门“{parentName}”之下。',
      'zh-TW': '不能將部門「{name}」移動到其下級部門「{parentName}」之下。',
      'en-US': 'Department "{name}" cannot be moved under "{parentName}", which is one of its own sub-departments.',
      'ja-JP': '部門「{name}」を、その配下の部門「{parentName}」の下に移動することはできません。',
      'ko-KR': '부서 "{name}"을(를) 자신의 하위 부서인 "{parentName}" 아래로 이동할 수 없습니다.',
      'de-DE':
        'Die Abteilung „{name}“ kann nicht unter „{parentName}“ verschoben werden, da diese ihr selbst untergeordnet ist.',
      'hi-IN': 'विभाग "{name}" को उसके अपने उप-विभाग "{parentName}" के अंतर्गत नहीं ले जाया जा सकता।',
    },
  },
  HAS_CHILDREN: {
    status: 422,
    text: {
      'zh-CN': '部门“{name}”下还有 {count} 个下级部门，请先移走或删除它们。',
      'zh-TW': '部門「{name}」下還有 {count} 個下級部門，請先移走或刪除它們。',
      'en-US': 'Department "{name}" still has {count} sub-department(s); move or delete them first.',
      'ja-JP': '部門「{name}」にはまだ {count} 件の下位部門があります。先に移動または削除してください。',
      'ko-KR': '부서 "{name}"에 하위 부서가 {count}개 남아 있습니다. 먼저 이동하거나 삭제하세요.',
      'de-DE': 'Die Abteilung „{name}“ hat noch {count} Unterabteilung(en); verschieben oder löschen Sie diese zuerst.',
      'hi-IN': 'विभाग "{name}" में अभी भी {count} उप-विभाग हैं; पहले उन्हें स्थानांतरित करें या हटाएँ।',
    },
  },
  NAME_INVALID: {
    status: 422,
    text: {
      'zh-CN': '部门名称不能为空，且不能超过 {max} 个字符。',
      'zh-TW': '部門名稱不能為空，且不能超過 {max} 個字元。',
      'en-US': 'The department name must not be empty and may have at most {max} characters.',
      'ja-JP': '部門名は必須で、{max} 文字以内で入力してください。',
      'ko-KR': '부서 이름은 비워 둘 수 없으며 최대 {max}자까지 입력할 수 있습니다.',
      'de-DE': 'Der Abteilungsname darf nicht leer sein und höchstens {max} Zeichen haben.',
      'hi-IN': 'विभाग का नाम खाली नहीं हो सकता और उसमें अधिकतम {max} वर्ण हो सकते हैं।',
    },
  },
});
