import { defineErrors } from '../../errors/app-error.js';

/** Failures of the API credential self-service under /api/Profile (the original service: 400 texts). */
export const credentialErrors = defineErrors('apiCredential', {
  LIMIT_REACHED: {
    status: 400,
    text: {
      'zh-CN': 'API 凭证最多 {max} 个，请先删除不再使用的凭证。',
      'zh-TW': 'API 憑證最多 {max} 個，請先刪除不再使用的憑證。',
      'en-US': 'You can have at most {max} API credentials; delete one you no longer use first.',
      'ja-JP': 'API 認証情報は最大 {max} 個までです。使わなくなったものを先に削除してください。',
      'ko-KR': 'API 자격 증명은 최대 {max}개까지입니다. 사용하지 않는 자격 증명을 먼저 삭제하세요.',
      'de-DE': 'Sie können höchstens {max} API-Zugänge haben; löschen Sie zuerst einen nicht mehr benötigten.',
      'hi-IN': 'आपके पास अधिकतम {max} API क्रेडेंशियल हो सकते हैं; पहले कोई अनुपयोगी क्रेडेंशियल हटाएँ।',
    },
  },
  NOT_FOUND: {
    status: 400,
    text: {
      'zh-CN': '凭证不存在或无权操作。',
      'zh-TW': '憑證不存在或無權操作。',
      'en-US': 'The credential does not exist or is not yours.',
      'ja-JP': '認証情報が存在しないか、操作する権限がありません。',
      'ko-KR': '자격 증명이 없거나 작업 권한이 없습니다.',
      'de-DE': 'Der Zugang existiert nicht oder gehört nicht Ihnen.',
      'hi-IN': 'क्रेडेंशियल मौजूद नहीं है या आपका नहीं है।',
    },
  },
  INVALID_ID: {
    status: 400,
    text: {
      'zh-CN': '凭证 ID 无效。',
      'zh-TW': '憑證 ID 無效。',
      'en-US': 'The credential id is invalid.',
      'ja-JP': '認証情報の ID が無効です。',
      'ko-KR': '자격 증명 ID가 유효하지 않습니다.',
      'de-DE': 'Die ID des Zugangs ist ungültig.',
      'hi-IN': 'क्रेडेंशियल आईडी अमान्य है।',
    },
  },
  IMPERSONATION_FORBIDDEN: {
    status: 403,
    text: {
      'zh-CN': '模拟登录期间不能生成或轮换 API 密钥。',
      'zh-TW': '模擬登入期間不能產生或輪換 API 金鑰。',
      'en-US': 'API keys cannot be generated or rotated while impersonating another user.',
      'ja-JP': '他のユーザーになりすましている間は API キーを生成またはローテーションできません。',
      'ko-KR': '다른 사용자로 가장하는 동안에는 API 키를 생성하거나 교체할 수 없습니다.',
      'de-DE': 'Während einer Benutzerübernahme können keine API-Schlüssel erzeugt oder erneuert werden.',
      'hi-IN': 'किसी अन्य उपयोगकर्ता का प्रतिरूपण करते समय API कुंजियाँ बनाई या बदली नहीं जा सकतीं।',
    },
  },
  ALGORITHM_NOT_ALLOWED: {
    status: 400,
    text: {
      'zh-CN': '不支持的签名算法：{algorithm}；可选：{allowed}。',
      'zh-TW': '不支援的簽章演算法：{algorithm}；可選：{allowed}。',
      'en-US': 'Unsupported signature algorithm {algorithm}; allowed: {allowed}.',
      'ja-JP': 'サポートされていない署名アルゴリズム {algorithm} です。使用可能: {allowed}。',
      'ko-KR': '지원하지 않는 서명 알고리즘 {algorithm}입니다. 허용: {allowed}.',
      'de-DE': 'Nicht unterstützter Signaturalgorithmus {algorithm}; erlaubt: {allowed}.',
      'hi-IN': 'असमर्थित हस्ताक्षर एल्गोरिद्म {algorithm}; अनुमत: {allowed}।',
    },
  },
  SM2_PUBLIC_KEY_INVALID: {
    status: 400,
    text: {
      'zh-CN': 'SM2 需要 SM2 曲线上的公钥：未压缩的十六进制（04 + x + y）或 PEM 格式。',
      'zh-TW': 'SM2 需要 SM2 曲線上的公鑰：未壓縮的十六進位（04 + x + y）或 PEM 格式。',
      'en-US': 'SM2 needs a public key on the SM2 curve: uncompressed hex (04 + x + y) or PEM.',
      'ja-JP': 'SM2 には SM2 曲線上の公開鍵（非圧縮の 16 進数 04 + x + y、または PEM）が必要です。',
      'ko-KR': 'SM2에는 SM2 곡선의 공개 키(비압축 16진수 04 + x + y 또는 PEM)가 필요합니다.',
      'de-DE':
        'SM2 benötigt einen öffentlichen Schlüssel auf der SM2-Kurve: unkomprimiertes Hex (04 + x + y) oder PEM.',
      'hi-IN': 'SM2 के लिए SM2 वक्र पर सार्वजनिक कुंजी चाहिए: असंपीड़ित हेक्स (04 + x + y) या PEM।',
    },
  },
  PUBLIC_KEY_INVALID: {
    status: 400,
    text: {
      'zh-CN': 'RSASHA256 需要 PEM 格式、至少 2048 位的 RSA 公钥（且仅用于 RSASHA256）。',
      'zh-TW': 'RSASHA256 需要 PEM 格式、至少 2048 位元的 RSA 公鑰（且僅用於 RSASHA256）。',
      'en-US':
        'RSASHA256 needs an RSA public key in PEM form of at least 2048 bits (and a public key is for RSASHA256 only).',
      'ja-JP': 'RSASHA256 には 2048 ビット以上の PEM 形式の RSA 公開鍵が必要です（公開鍵は RSASHA256 専用です）。',
      'ko-KR': 'RSASHA256에는 PEM 형식의 2048비트 이상 RSA 공개 키가 필요합니다(공개 키는 RSASHA256 전용입니다).',
      'de-DE':
        'RSASHA256 benötigt einen öffentlichen RSA-Schlüssel im PEM-Format mit mindestens 2048 Bit (und ein öffentlicher Schlüssel ist nur für RSASHA256).',
      'hi-IN':
        'RSASHA256 के लिए कम से कम 2048 बिट की PEM रूप में RSA सार्वजनिक कुंजी चाहिए (और सार्वजनिक कुंजी केवल RSASHA256 के लिए है)।',
    },
  },
  ALLOW_LIST_INVALID: {
    status: 400,
    text: {
      'zh-CN': 'IP 白名单中的条目无效：{entry}。',
      'zh-TW': 'IP 白名單中的項目無效：{entry}。',
      'en-US': 'Invalid allow-list entry: {entry}.',
      'ja-JP': '許可リストの項目が無効です: {entry}。',
      'ko-KR': '허용 목록 항목이 유효하지 않습니다: {entry}.',
      'de-DE': 'Ungültiger Eintrag der Positivliste: {entry}.',
      'hi-IN': 'अनुमति सूची की अमान्य प्रविष्टि: {entry}।',
    },
  },
  EXPIRATION_IN_PAST: {
    status: 400,
    text: {
      'zh-CN': '过期时间须晚于当前时间。',
      'zh-TW': '到期時間須晚於目前時間。',
      'en-US': 'The expiration time must be in the future.',
      'ja-JP': '有効期限は現在より後である必要があります。',
      'ko-KR': '만료 시간은 현재 이후여야 합니다.',
      'de-DE': 'Der Ablaufzeitpunkt muss in der Zukunft liegen.',
      'hi-IN': 'समाप्ति समय भविष्य में होना चाहिए।',
    },
  },
});
