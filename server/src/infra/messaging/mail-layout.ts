import type { Culture } from '../../config/schema.js';
import { defineMessages, translate } from '../../i18n/messages.js';
import type { OutgoingMessage } from './transport.js';

/** Texts of the frame every e-mail is sent in. */
const texts = defineMessages('mailLayout', {
  time: {
    'zh-CN': '时间',
    'zh-TW': '時間',
    'en-US': 'Time',
    'ja-JP': '日時',
    'ko-KR': '시간',
    'de-DE': 'Zeit',
    'hi-IN': 'समय',
  },
  address: {
    'zh-CN': 'IP 地址',
    'zh-TW': 'IP 位址',
    'en-US': 'IP address',
    'ja-JP': 'IP アドレス',
    'ko-KR': 'IP 주소',
    'de-DE': 'IP-Adresse',
    'hi-IN': 'IP पता',
  },
  device: {
    'zh-CN': '设备',
    'zh-TW': '裝置',
    'en-US': 'Device',
    'ja-JP': 'デバイス',
    'ko-KR': '기기',
    'de-DE': 'Gerät',
    'hi-IN': 'डिवाइस',
  },
  footer: {
    'zh-CN': '此邮件由 {site} 自动发送，请勿直接回复。',
    'zh-TW': '此郵件由 {site} 自動發送，請勿直接回覆。',
    'en-US': 'This message was sent automatically by {site}. Please do not reply to it.',
    'ja-JP': 'このメッセージは {site} から自動送信されています。返信しないでください。',
    'ko-KR': '이 메시지는 {site}에서 자동으로 보냈습니다. 회신하지 마세요.',
    'de-DE': 'Diese Nachricht wurde automatisch von {site} gesendet. Bitte antworten Sie nicht darauf.',
    'hi-IN': 'यह संदेश {site} द्वारा स्वचालित रूप से भेजा गया है। कृपया इसका उत्तर न दें।',
  },
});

export interface MailSite {
  /** The site's title (App:Name) and logo (App:LogoUrl), as UserInfo gives them to the front end. */
  title: string;
  logoUrl?: string;
  defaultCulture: Culture;
  timeZone: string;
}

/** Text safe inside HTML elements and attribute values. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** Plain text as HTML paragraphs: links clickable, one-time codes (4 to 8 digits standing alone) stand out. */
function textToHtml(text: string): string {
  return text
    .split(/\n+/)
    .map((line) => {
      const html = escapeHtml(line)
        .replace(/https?:\/\/[^\s<>"']+/g, (url) => `<a href="${url}" style="color:#1f6feb">${url}</a>`)
        .replace(
          /(^|[^\w/#=&;.-])(\d{4,8})(?=$|[\s,;:!?)（），。]|\.(?:\s|$))/g,
          '$1<strong style="font-size:20px;letter-spacing:3px">$2</strong>',
        );
      return `<p style="margin:0 0 14px">${html}</p>`;
    })
    .join('');
}

function detailRows(message: OutgoingMessage, culture: Culture, site: MailSite): Array<[string, string]> {
  const d = message.details;
  if (!d) return [];
  const time = new Intl.DateTimeFormat(culture, {
    dateStyle: 'long',
    timeStyle: 'long',
    timeZone: site.timeZone,
  }).format(d.time);
  return [
    [translate(culture, texts.time), time],
    ...(d.ip ? [[translate(culture, texts.address), d.ip] as [string, string]] : []),
    ...(d.device ? [[translate(culture, texts.device), d.device] as [string, string]] : []),
  ];
}

/** The e-mail as sent: the site's header, the message, the details of a security notice, a footer; HTML with a text part. */
export function layoutMail(message: OutgoingMessage, site: MailSite): OutgoingMessage {
  const culture = message.culture ?? site.defaultCulture;
  const details = detailRows(message, culture, site);
  const footer = translate(culture, texts.footer, { site: site.title });
  const text = [message.text, details.map(([k, v]) => `${k}: ${v}`).join('\n'), `-- \n${footer}`]
    .filter(Boolean)
    .join('\n\n');
  const header = site.logoUrl
    ? `<img src="${escapeHtml(site.logoUrl)}" alt="${escapeHtml(site.title)}" height="32" style="vertical-align:middle;margin-right:10px">`
    : '';
  const table = details.length
    ? `<table style="border-collapse:collapse;margin:8px 0 16px;font-size:14px">${details
        .map(
          ([k, v]) =>
            `<tr><td style="padding:4px 16px 4px 0;color:#57606a">${escapeHtml(k)}</td><td style="padding:4px 0">${escapeHtml(v)}</td></tr>`,
        )
        .join('')}</table>`
    : '';
  const html = `<!doctype html><html lang="${culture}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(message.subject ?? site.title)}</title></head>
<body style="margin:0;padding:24px;background:#f6f8fa;font-family:-apple-system,'Segoe UI',Roboto,'Noto Sans','PingFang SC','Microsoft YaHei',sans-serif;color:#1f2328">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #d0d7de;border-radius:8px;padding:24px">
<div style="font-size:18px;font-weight:600;margin-bottom:20px">${header}${escapeHtml(site.title)}</div>
${message.subject ? `<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(message.subject)}</h1>` : ''}
${message.html ?? textToHtml(message.text)}${table}
<p style="margin:24px 0 0;font-size:12px;color:#57606a">${escapeHtml(footer)}</p>
</div></body></html>`;
  return { ...message, text, html };
}
