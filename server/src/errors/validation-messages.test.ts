import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.js';

/** Validation answers as an end user reads them: fields by their label, no raw patterns. */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ config: { Saas: { Auth: { CaptchaEnabled: false } } } });
});
afterAll(() => server.close());

const post = (path: string, json: unknown, language: string) =>
  server.json(path, { method: 'POST', json, headers: { 'x-language': language } });
const PATTERN = /\/\^|\$\/|\\d|\[\^?[\w\\-]+\]/;

describe('validation messages', () => {
  it('name a failed pattern check without showing the pattern, and the field by its label', async () => {
    const en = await post('/api/Auth/PhoneLoginCode', { phone: 'not a phone' }, 'en-US');
    expect(en.status).toBe(400);
    expect(en.body.data).toEqual([{ field: 'phone', message: 'Phone number: Invalid format' }]);
    expect(en.body.message).toBe('Request validation failed: Phone number: Invalid format');

    const zh = await post('/api/Auth/PhoneLoginCode', { phone: 'not a phone' }, 'zh-CN');
    expect(zh.body.data).toEqual([{ field: 'phone', message: '手机号：格式不正确' }]);
    expect(zh.body.message).toContain('手机号：格式不正确');
    for (const answer of [en, zh]) expect(JSON.stringify(answer.body)).not.toMatch(PATTERN);
  });

  it('label the fields of every culture and keep the machine path in `field`', async () => {
    const labels: Record<string, string> = {
      'zh-CN': '密码',
      'zh-TW': '密碼',
      'en-US': 'Password',
      'ja-JP': 'パスワード',
      'ko-KR': '비밀번호',
      'de-DE': 'Passwort',
      'hi-IN': 'पासवर्ड',
    };
    for (const [language, label] of Object.entries(labels)) {
      const res = await post('/api/Auth/Login', { username: 'someone', password: 42 }, language);
      expect(res.status).toBe(400);
      const entry = (res.body.data as Array<{ field: string; message: string }>).find((d) => d.field === 'password');
      expect(entry?.message.startsWith(label), `${language}: ${entry?.message}`).toBe(true);
      expect(res.body.message).toContain(label);
    }
  });

  it('name a field without a label by its path', async () => {
    const res = await post('/api/Auth/RefreshToken', { accessToken: 'x' }, 'en-US');
    expect(res.status).toBe(400);
    expect(res.body.data).toEqual([{ field: 'refreshToken', message: expect.stringMatching(/^Invalid input/) }]);
    expect(res.body.message).toMatch(/refreshToken: /);
  });
});
