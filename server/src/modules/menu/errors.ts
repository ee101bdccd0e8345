import { defineErrors } from '../../errors/app-error.js';

/**
 * Failures of menus. Global menus (tenant 0) are readable by every tenant but changed only by the
 * platform (403); another tenant's menu is simply not found (404).
 */
export const menuErrors = defineErrors('menu', {
  NOT_FOUND: {
    status: 404,
    text: {
      'zh-CN': '菜单 {id} 不存在或已删除。',
      'zh-TW': '選單 {id} 不存在或已刪除。',
      'en-US': 'Menu {id} does not exist or was deleted.',
      'ja-JP': 'メニュー {id} は存在しないか、削除されています。',
      'ko-KR': '메뉴 {id}이(가) 없거나 삭제되었습니다.',
      'de-DE': 'Das Menü {id} existiert nicht oder wurde gelöscht.',
      'hi-IN': 'मेनू {id} मौजूद नहीं है या हटा दिया गया है।',
    },
  },
  GLOBAL_READONLY: {
    status: 403,
    text: {
      'zh-CN': '菜单“{name}”是全局菜单，只能由平台修改。',
      'zh-TW': '選單「{name}」是全域選單，只能由平台修改。',
      'en-US': 'Menu "{name}" is a global menu; only the platform can change it.',
      'ja-JP': 'メニュー「{name}」はグローバルメニューのため、プラットフォームのみが変更できます。',
      'ko-KR': '메뉴 "{name}"은(는) 전역 메뉴이므로 플랫폼만 변경할 수 있습니다.',
      'de-DE': 'Das Menü „{name}“ ist ein globales Menü; nur die Plattform kann es ändern.',
      'hi-IN': 'मेनू "{name}" एक वैश्विक मेनू है; केवल प्लेटफ़ॉर्म इसे बदल सकता है।',
    },
  },
  PARENT_NOT_FOUND: {
    status: 404,
    text: {
      'zh-CN': '上级菜单 {parentId} 不存在或已删除。',
      'zh-TW': '上級選單 {parentId} 不存在或已刪除。',
      'en-US': 'The parent menu {parentId} does not exist or was deleted.',
      'ja-JP': '親メニュー {parentId} は存在しないか、削除されています。',
      'ko-KR': '상위 메뉴 {parentId}이(가) 없거나 삭제되었습니다.',
      'de-DE': 'Das übergeordnete Menü {parentId} existiert nicht oder wurde gelöscht.',
      'hi-IN': 'मूल मेनू {parentId} मौजूद नहीं है या हटा दिया गया है।',
    },
  },
  PARENT_CYCLE: {
    status: 422,
    text: {
      'zh-CN': '不能将菜单“{name}”放到它自己或其下级菜单之下。',
      'zh-TW': '不能將選單「{name}」放到它自己或其下級選單之下。',
      'en-US': 'Menu "{name}" cannot be placed under itself or one of its own sub-menus.',
      'ja-JP': 'メニュー「{name}」を自身またはその配下のメニューの下に置くことはできません。',
      'ko-KR': '메뉴 "{name}"을(를) 자신 또는 자신의 하위 메뉴 아래에 둘 수 없습니다.',
      'de-DE': 'Das Menü „{name}“ kann nicht unter sich selbst oder eines seiner Untermenüs gestellt werden.',
      'hi-IN': 'मेनू "{name}" को स्वयं या अपने किसी उप-मेनू के अंतर्गत नहीं रखा जा सकता।',
    },
  },
  HAS_CHILDREN: {
    status: 422,
    text: {
      'zh-CN': '菜单“{name}”下还有 {count} 个子菜单，请先移走或删除它们。',
      'zh-TW': '選單「{name}」下還有 {count} 個子選單，請先移走或刪除它們。',
      'en-US': 'Menu "{name}" still has {count} sub-menu(s); move or delete them first.',
      'ja-JP': 'メニュー「{name}」にはまだ {count} 件のサブメニューがあります。先に移動または削除してください。',
      'ko-KR': '메뉴 "{name}"에 하위 메뉴가 {count}개 남아 있습니다. 먼저 이동하거나 삭제하세요.',
      'de-DE': 'Das Menü „{name}“ hat noch {count} Untermenü(s); verschieben oder löschen Sie diese zuerst.',
      'hi-IN': 'मेनू "{name}" में अभी भी {count} उप-मेनू हैं; पहले उन्हें स्थानांतरित करें या हटाएँ।',
    },
  },
});
