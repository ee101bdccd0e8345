import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailsTo } from '../../modules/auth/self-service/self-service-test-kit.js';
import { bearer, createTestUser, GOOD_PASSWORD, loginAs } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { layoutMail } from './mail-layout.js';
import { startAdminServer } from '../../testing/admin.js';

const site = {
  title: 'Acme <ID>',
  logoUrl: 'https://acme.example/logo.png',
  defaultCulture: 'en-US' as const,
  timeZone: 'UTC',
};

describe('the e-mail layout', () => {
  it('frames the text as HTML with the site, a clickable link and a prominent code, and keeps a text part', () => {
    const mail = layoutMail(
      {
        channel: 'email',
        to: 'a@example.test',
        kind: 'login-code',
        subject: 'Your code',
        text: 'Your code is 482913.\nOr open https://acme.example/x?token=abc&y=1',
      },
      site,
    );
    expect(mail.html).toContain('<img src="https://acme.example/logo.png" alt="Acme &#60;ID&#62;"');
    expect(mail.html).toContain('<strong style="font-size:20px;letter-spacing:3px">482913</strong>');
    expect(mail.html).toContain('<a href="https://acme.example/x?token=abc&#38;y=1"');
    expect(mail.html).toContain('<h1 style="font-size:20px;margin:0 0 16px">Your code</h1>');
    expect(mail.html).not.toContain('<ID>');
    expect(mail.text).toMatch(
      /^Your code is 482913\.\nOr open https:\/\/acme\.example\/x\?token=abc&y=1\n\n-- \nThis message was sent automatically by Acme <ID>\./,
    );
  });

  it('keeps a body already in HTML, and writes the details of a security notice in the recipient\u2019s language', () => {
    const mail = layoutMail(
      {
        channel: 'email',
        to: 'a@example.test',
        kind: 'security-alert',
        subject: 'Passwort',
        text: 'Geändert.',
        html: '<p>Geändert.</p>',
        culture: 'de-DE',
        details: { time: new Date('2026-11-26T10:00:00Z'), ip: '203.0.113.7', device: 'Chrome, Windows' },
      },
      { ...site, logoUrl: undefined },
    );
    expect(mail.html).toContain('<p>Geändert.</p>');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('<html lang="de-DE">');
    expect(mail.html).toMatch(/Zeit<\/td><td[^>]*>26\. November 2026 um 10:00:00 UTC/);
    expect(mail.html).toMatch(/IP-Adresse<\/td><td[^>]*>203\.0\.113\.7/);
    expect(mail.text).toContain('Gerät: Chrome, Windows');
    expect(mail.text).toContain('Diese Nachricht wurde automatisch von Acme <ID> gesendet.');
  });
});

describe('a security notice by e-mail, over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startAdminServer({ config: { App: { Name: 'Acme ID', LogoUrl: 'https://acme.example/logo.png' } } });
  });
  afterAll(() => server?.close());

  it('tells when, from which address and on which device the password was changed, in the language of the request', async () => {
    const user = await createTestUser(server.runtime.deps);
    const token = (await loginAs(server, user)).accessToken;
    const res = await server.json('/api/Profile/ChangePassword', {
      method: 'POST',
      headers: {
        ...bearer(token),
        'x-language': 'ja-JP',
        'user-agent':
          'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
      },
      json: { oldPassword: GOOD_PASSWORD, newPassword: 'An0ther#Passw0rd!' },
    });
    expect(res.status).toBe(200);
    const [mail] = await mailsTo(server, user.email!, 'security-alert');
    expect(mail).toBeDefined();
    expect(mail!.subject).toBe('パスワードが変更されました');
    expect(mail!.html).toContain('Acme ID');
    expect(mail!.html).toContain('https://acme.example/logo.png');
    expect(mail!.html).toMatch(/IP アドレス<\/td><td[^>]*>127\.0\.0\.1/);
    expect(mail!.html).toMatch(/デバイス<\/td><td[^>]*>Chrome[^<]*Windows/);
    expect(mail!.text).toMatch(/日時: .+/);
    expect(mail!.text).toContain('このメッセージは Acme ID から自動送信されています。');
  });
});
