import type { Culture } from '../../config/schema.js';
import { defineMessages, translate } from '../../i18n/messages.js';
import type { OutgoingMessage } from '../../infra/messaging/transport.js';

const texts = defineMessages('tenantInvitationMail', {
  subject: {
    'zh-CN': '邀请您加入 {tenant}',
    'zh-TW': '邀請您加入 {tenant}',
    'en-US': 'You are invited to join {tenant}',
    'ja-JP': '{tenant} への招待',
    'ko-KR': '{tenant}에 초대되었습니다',
    'de-DE': 'Einladung zu {tenant}',
    'hi-IN': 'आपको {tenant} में शामिल होने का आमंत्रण है',
  },
  body: {
    'zh-CN':
      '您被邀请加入 {tenant}（{app}）。请用本邮箱地址登录（没有账号可先注册并验证邮箱），在“我的邀请”中接受或拒绝。邀请有效期至 {until}（UTC）。如不认识发送方，请忽略本邮件。',
    'zh-TW':
      '您被邀請加入 {tenant}（{app}）。請用本電子郵件地址登入（沒有帳號可先註冊並驗證電子郵件），在「我的邀請」中接受或拒絕。邀請有效期至 {until}（UTC）。如不認識寄件方，請忽略本郵件。',
    'en-US':
      'You are invited to join {tenant} on {app}. Sign in with this address (or register and verify it first), then accept or decline under "My invitations". The invitation is open until {until} (UTC). If you do not know the sender, ignore this message.',
    'ja-JP':
      '{app} の {tenant} に招待されました。このアドレスでサインイン（アカウントがない場合は登録してアドレスを確認）し、「招待」から承諾または辞退してください。招待の有効期限は {until}（UTC）です。送信者に心当たりがない場合は、このメッセージを無視してください。',
    'ko-KR':
      '{app}의 {tenant}에 초대되었습니다. 이 주소로 로그인(계정이 없으면 가입 후 주소 인증)한 뒤 "내 초대"에서 수락하거나 거절하세요. 초대는 {until}(UTC)까지 유효합니다. 보낸 사람을 모르면 이 메시지를 무시하세요.',
    'de-DE':
      'Sie sind eingeladen, {tenant} auf {app} beizutreten. Melden Sie sich mit dieser Adresse an (oder registrieren und bestätigen Sie sie zuerst) und nehmen Sie unter „Meine Einladungen“ an oder lehnen Sie ab. Die Einladung gilt bis {until} (UTC). Wenn Sie den Absender nicht kennen, ignorieren Sie diese Nachricht.',
    'hi-IN':
      'आपको {app} पर {tenant} में शामिल होने का आमंत्रण है। इस पते से साइन इन करें (या पहले पंजीकरण करके इसे सत्यापित करें), फिर "मेरे आमंत्रण" में स्वीकार या अस्वीकार करें। आमंत्रण {until} (UTC) तक खुला है। यदि आप भेजने वाले को नहीं जानते, तो इस संदेश को अनदेखा करें।',
  },
});

/** The invitation mail: the same whether the address has an account or not. */
export function invitationMessage(
  to: string,
  tenant: string,
  app: string,
  until: Date,
  culture: Culture,
): OutgoingMessage {
  const params = { tenant, app, until: until.toISOString().slice(0, 16).replace('T', ' ') };
  return {
    channel: 'email',
    to,
    kind: 'tenant-invitation',
    subject: translate(culture, texts.subject, params),
    text: translate(culture, texts.body, params),
  };
}
