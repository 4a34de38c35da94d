import { describe, expect, it } from 'vitest';
import { iconSourcePolicy } from './source-policy.ts';

describe('iconSourcePolicy', () => {
  const live = iconSourcePolicy(['https://gamma-api.polymarket.com', 'https://clob.polymarket.com']);

  it('takes public http(s) pictures', () => {
    expect(live('https://polymarket-upload.s3.us-east-2.amazonaws.com/a.png')).toBe(true);
    expect(live('http://cdn.example.com/a.jpg')).toBe(true);
  });

  it('refuses other schemes, credentials in the URL and garbage', () => {
    for (const u of [
      'file:///etc/passwd',
      'ftp://example.com/a.png',
      'data:image/png;base64,AAAA',
      'https://u:p@example.com/a.png',
      'not a url',
    ]) {
      expect(live(u), u).toBe(false);
    }
  });

  it('refuses loopback, private and link-local hosts for a remote catalog', () => {
    for (const host of [
      '127.0.0.1',
      'localhost',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '[::1]',
      '[fd00::1]',
      '[::ffff:127.0.0.1]',
      'printer.local',
    ]) {
      expect(live(`http://${host}/a.png`), host).toBe(false);
    }
    expect(live('http://172.32.0.1/a.png')).toBe(true);
  });

  it('takes local pictures when the catalog itself is local (demo, tests)', () => {
    const local = iconSourcePolicy(['http://127.0.0.1:4010']);
    expect(local('http://127.0.0.1:4010/images/a.png')).toBe(true);
    expect(local('file:///etc/passwd')).toBe(false);
  });
});
