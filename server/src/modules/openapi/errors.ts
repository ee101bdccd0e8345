import { defineErrors } from '../../errors/app-error.js';

/**
 * Failures of the signed open-API interface, one per stage of the check (the original service):
 * missing or incomplete headers 401, a malformed timestamp 400, a stale one 401, an unknown or
 * disabled key 401, an address off the allow-list 403, an unsupported algorithm 400, an
 * unreadable or undecryptable body 400 (too large: the common 413), a wrong content sign or
 * signature 401, and a replayed nonce 409 (SPEC Errors rule 8: the conflict class), as is a
 * request signed before the record of used nonces began (it may be a replay the lost record
 * would have refused).
 */
export const openApiErrors = defineErrors('openApi', {
  MISSING_SECURITY_HEADERS: {
    status: 401,
    text: {
      'zh-CN': '缺少安全请求头。',
      'zh-TW': '缺少安全請求標頭。',
      'en-US': 'The security headers of a signed request are missing.',
      'ja-JP': '署名付きリクエストのセキュリティヘッダーがありません。',
      'ko-KR': '서명된 요청의 보안 헤더가 없습니다.',
      'de-DE': 'Die Sicherheits-Header einer signierten Anfrage fehlen.',
      'hi-IN': 'हस्ताक्षरित अनुरोध के सुरक्षा हेडर मौजूद नहीं हैं।',
    },
  },
  INCOMPLETE_SECURITY_HEADERS: {
    status: 401,
    text: {
      'zh-CN': '安全请求头不完整，缺少：{headers}。',
      'zh-TW': '安全請求標頭不完整，缺少：{headers}。',
      'en-US': 'The security headers are incomplete; missing: {headers}.',
      'ja-JP': 'セキュリティヘッダーが不完全です。不足: {headers}。',
      'ko-KR': '보안 헤더가 불완전합니다. 누락: {headers}.',
      'de-DE': 'Die Sicherheits-Header sind unvollständig; es fehlt: {headers}.',
      'hi-IN': 'सुरक्षा हेडर अधूरे हैं; अनुपस्थित: {headers}।',
    },
  },
  TIMESTAMP_FORMAT: {
    status: 400,
    text: {
      'zh-CN': '时间戳格式错误，X-Timestamp 须为 Unix 秒数。',
      'zh-TW': '時間戳格式錯誤，X-Timestamp 須為 Unix 秒數。',
      'en-US': 'X-Timestamp must be Unix time in seconds.',
      'ja-JP': 'X-Timestamp は Unix 時間（秒）である必要があります。',
      'ko-KR': 'X-Timestamp는 Unix 시간(초)이어야 합니다.',
      'de-DE': 'X-Timestamp muss eine Unix-Zeit in Sekunden sein.',
      'hi-IN': 'X-Timestamp सेकंड में Unix समय होना चाहिए।',
    },
  },
  TIMESTAMP_EXPIRED: {
    status: 401,
    text: {
      'zh-CN': '请求时间窗已失效（允许误差 {seconds} 秒），请校准时钟。',
      'zh-TW': '請求時間窗已失效（允許誤差 {seconds} 秒），請校準時鐘。',
      'en-US': 'The request timestamp is outside the allowed window of {seconds} seconds; check the clock.',
      'ja-JP': 'リクエストのタイムスタンプが許容範囲（{seconds} 秒）外です。時計を確認してください。',
      'ko-KR': '요청 타임스탬프가 허용 범위({seconds}초)를 벗어났습니다. 시계를 확인하세요.',
      'de-DE':
        'Der Zeitstempel der Anfrage liegt außerhalb des erlaubten Fensters von {seconds} Sekunden; prüfen Sie die Uhr.',
      'hi-IN': 'अनुरोध का टाइमस्टैम्प {seconds} सेकंड की अनुमत सीमा से बाहर है; घड़ी जाँचें।',
    },
  },
  NONCE_INVALID: {
    status: 400,
    text: {
      'zh-CN': 'X-Nonce 须为 1 到 {max} 个可见字符。',
      'zh-TW': 'X-Nonce 須為 1 到 {max} 個可見字元。',
      'en-US': 'X-Nonce must be 1 to {max} visible characters.',
      'ja-JP': 'X-Nonce は 1～{max} 文字の表示可能な文字である必要があります。',
      'ko-KR': 'X-Nonce는 1~{max}자의 표시 가능한 문자여야 합니다.',
      'de-DE': 'X-Nonce muss aus 1 bis {max} sichtbaren Zeichen bestehen.',
      'hi-IN': 'X-Nonce 1 से {max} दृश्य वर्णों का होना चाहिए।',
    },
  },
  ACCESS_KEY_INVALID: {
    status: 401,
    text: {
      'zh-CN': 'AccessKey 无效或已禁用。',
      'zh-TW': 'AccessKey 無效或已停用。',
      'en-US': 'The access key is invalid or disabled.',
      'ja-JP': 'アクセスキーが無効か、無効化されています。',
      'ko-KR': '액세스 키가 유효하지 않거나 비활성화되었습니다.',
      'de-DE': 'Der Zugriffsschlüssel ist ungültig oder deaktiviert.',
      'hi-IN': 'एक्सेस कुंजी अमान्य या अक्षम है।',
    },
  },
  IP_NOT_ALLOWED: {
    status: 403,
    text: {
      'zh-CN': '请求 IP 不在白名单内。',
      'zh-TW': '請求 IP 不在白名單內。',
      'en-US': "The client address is not on the credential's allow-list.",
      'ja-JP': 'クライアントの IP アドレスが許可リストにありません。',
      'ko-KR': '클라이언트 IP가 허용 목록에 없습니다.',
      'de-DE': 'Die Client-Adresse steht nicht auf der Positivliste des Zugangs.',
      'hi-IN': 'क्लाइंट पता क्रेडेंशियल की अनुमति सूची में नहीं है।',
    },
  },
  TOO_MANY_KEY_LOOKUPS: {
    status: 429,
    text: {
      'zh-CN': '未知 AccessKey 的请求过多，请 {seconds} 秒后再试。',
      'zh-TW': '未知 AccessKey 的請求過多，請 {seconds} 秒後再試。',
      'en-US': 'Too many requests with unknown access keys; try again in {seconds} seconds.',
      'ja-JP': '不明なアクセスキーによるリクエストが多すぎます。{seconds} 秒後に再試行してください。',
      'ko-KR': '알 수 없는 액세스 키로 요청이 너무 많습니다. {seconds}초 후에 다시 시도하세요.',
      'de-DE': 'Zu viele Anfragen mit unbekannten Zugriffsschlüsseln; versuchen Sie es in {seconds} Sekunden erneut.',
      'hi-IN': 'अज्ञात एक्सेस कुंजियों वाले बहुत अधिक अनुरोध; {seconds} सेकंड बाद पुनः प्रयास करें।',
    },
  },
  REPLAYED: {
    status: 409,
    text: {
      'zh-CN': '检测到重复请求（X-Nonce 已使用）。',
      'zh-TW': '偵測到重複請求（X-Nonce 已使用）。',
      'en-US': 'Replayed request: this X-Nonce was already used.',
      'ja-JP': '重複したリクエストです。この X-Nonce は使用済みです。',
      'ko-KR': '중복 요청입니다. 이 X-Nonce는 이미 사용되었습니다.',
      'de-DE': 'Wiederholte Anfrage: Diese X-Nonce wurde bereits verwendet.',
      'hi-IN': 'दोहराया गया अनुरोध: यह X-Nonce पहले ही उपयोग हो चुका है।',
    },
  },
  PREDATES_NONCE_RECORD: {
    status: 409,
    text: {
      'zh-CN':
        '请求的签名时间早于防重放记录的起始时间（记录已重置），无法排除重放；请用当前时间和新的 X-Nonce 重新签名。',
      'zh-TW':
        '請求的簽章時間早於防重放紀錄的起始時間（紀錄已重設），無法排除重放；請用目前時間和新的 X-Nonce 重新簽章。',
      'en-US':
        'The request was signed before the record of used nonces began (it was reset), so it cannot be told from a replay; sign it again with the current time and a new X-Nonce.',
      'ja-JP':
        'リクエストは使用済み X-Nonce の記録が始まる前（記録はリセットされました）に署名されたため、リプレイでないことを確認できません。現在時刻と新しい X-Nonce で署名し直してください。',
      'ko-KR':
        '요청이 사용된 X-Nonce 기록이 시작되기 전(기록이 초기화됨)에 서명되어 재전송 여부를 확인할 수 없습니다. 현재 시간과 새 X-Nonce로 다시 서명하세요.',
      'de-DE':
        'Die Anfrage wurde signiert, bevor die Aufzeichnung verwendeter Nonces begann (sie wurde zurückgesetzt), und ist daher von einer Wiederholung nicht zu unterscheiden; signieren Sie sie erneut mit der aktuellen Zeit und einer neuen X-Nonce.',
      'hi-IN':
        'अनुरोध पर उपयोग किए गए नॉन्स के रिकॉर्ड के शुरू होने (वह रीसेट हुआ था) से पहले हस्ताक्षर किए गए थे, इसलिए इसे पुनःप्रेषण से अलग नहीं किया जा सकता; वर्तमान समय और नए X-Nonce के साथ फिर से हस्ताक्षर करें।',
    },
  },
  UNSUPPORTED_SIGN_ALGORITHM: {
    status: 400,
    text: {
      'zh-CN': '不支持的签名算法：{algorithm}。',
      'zh-TW': '不支援的簽章演算法：{algorithm}。',
      'en-US': 'Unsupported signature algorithm: {algorithm}.',
      'ja-JP': 'サポートされていない署名アルゴリズム: {algorithm}。',
      'ko-KR': '지원하지 않는 서명 알고리즘: {algorithm}.',
      'de-DE': 'Nicht unterstützter Signaturalgorithmus: {algorithm}.',
      'hi-IN': 'असमर्थित हस्ताक्षर एल्गोरिद्म: {algorithm}।',
    },
  },
  UNSUPPORTED_CONTENT_SIGN_ALGORITHM: {
    status: 400,
    text: {
      'zh-CN': '不支持的内容签名算法：{algorithm}。',
      'zh-TW': '不支援的內容簽章演算法：{algorithm}。',
      'en-US': 'Unsupported content signature algorithm: {algorithm}.',
      'ja-JP': 'サポートされていない本文署名アルゴリズム: {algorithm}。',
      'ko-KR': '지원하지 않는 본문 서명 알고리즘: {algorithm}.',
      'de-DE': 'Nicht unterstützter Inhaltssignaturalgorithmus: {algorithm}.',
      'hi-IN': 'असमर्थित सामग्री हस्ताक्षर एल्गोरिद्म: {algorithm}।',
    },
  },
  UNSUPPORTED_ENCRYPT_ALGORITHM: {
    status: 400,
    text: {
      'zh-CN': '不支持的加密算法：{algorithm}。',
      'zh-TW': '不支援的加密演算法：{algorithm}。',
      'en-US': 'Unsupported encryption algorithm: {algorithm}.',
      'ja-JP': 'サポートされていない暗号化アルゴリズム: {algorithm}。',
      'ko-KR': '지원하지 않는 암호화 알고리즘: {algorithm}.',
      'de-DE': 'Nicht unterstützter Verschlüsselungsalgorithmus: {algorithm}.',
      'hi-IN': 'असमर्थित एन्क्रिप्शन एल्गोरिद्म: {algorithm}।',
    },
  },
  BODY_UNREADABLE: {
    status: 400,
    text: {
      'zh-CN': '请求体读取失败。',
      'zh-TW': '請求內容讀取失敗。',
      'en-US': 'The request body could not be read.',
      'ja-JP': 'リクエスト本文を読み取れませんでした。',
      'ko-KR': '요청 본문을 읽을 수 없습니다.',
      'de-DE': 'Der Anfrageinhalt konnte nicht gelesen werden.',
      'hi-IN': 'अनुरोध का मुख्य भाग पढ़ा नहीं जा सका।',
    },
  },
  DECRYPT_FAILED: {
    status: 400,
    text: {
      'zh-CN': '请求体解密失败；未加密的请求体须带 X-Encrypt-Algorithm: NONE。',
      'zh-TW': '請求內容解密失敗；未加密的請求內容須帶 X-Encrypt-Algorithm: NONE。',
      'en-US': 'The request body could not be decrypted; a plain body must be sent with X-Encrypt-Algorithm: NONE.',
      'ja-JP':
        'リクエスト本文を復号できませんでした。暗号化していない本文には X-Encrypt-Algorithm: NONE を付けてください。',
      'ko-KR':
        '요청 본문을 복호화할 수 없습니다. 암호화하지 않은 본문은 X-Encrypt-Algorithm: NONE과 함께 보내야 합니다.',
      'de-DE':
        'Der Anfrageinhalt konnte nicht entschlüsselt werden; ein unverschlüsselter Inhalt erfordert X-Encrypt-Algorithm: NONE.',
      'hi-IN': 'अनुरोध का मुख्य भाग डिक्रिप्ट नहीं हो सका; सादा मुख्य भाग X-Encrypt-Algorithm: NONE के साथ भेजें।',
    },
  },
  CONTENT_SIGN_MISSING: {
    status: 401,
    text: {
      'zh-CN': '缺少内容签名（X-Content-Sign）。',
      'zh-TW': '缺少內容簽章（X-Content-Sign）。',
      'en-US': 'The content signature (X-Content-Sign) is missing.',
      'ja-JP': '本文署名（X-Content-Sign）がありません。',
      'ko-KR': '본문 서명(X-Content-Sign)이 없습니다.',
      'de-DE': 'Die Inhaltssignatur (X-Content-Sign) fehlt.',
      'hi-IN': 'सामग्री हस्ताक्षर (X-Content-Sign) मौजूद नहीं है।',
    },
  },
  CONTENT_SIGN_INVALID: {
    status: 401,
    text: {
      'zh-CN': '内容签名校验失败。',
      'zh-TW': '內容簽章驗證失敗。',
      'en-US': 'The content signature does not match the body.',
      'ja-JP': '本文署名が本文と一致しません。',
      'ko-KR': '본문 서명이 본문과 일치하지 않습니다.',
      'de-DE': 'Die Inhaltssignatur passt nicht zum Inhalt.',
      'hi-IN': 'सामग्री हस्ताक्षर मुख्य भाग से मेल नहीं खाता।',
    },
  },
  SIGNATURE_INVALID: {
    status: 401,
    text: {
      'zh-CN': '请求签名校验失败。',
      'zh-TW': '請求簽章驗證失敗。',
      'en-US': 'The request signature is invalid.',
      'ja-JP': 'リクエストの署名が無効です。',
      'ko-KR': '요청 서명이 유효하지 않습니다.',
      'de-DE': 'Die Signatur der Anfrage ist ungültig.',
      'hi-IN': 'अनुरोध का हस्ताक्षर अमान्य है।',
    },
  },
});
