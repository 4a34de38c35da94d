/**
 * The host and origin rules alone: what a Host header may name, and what an allowed origin is.
 */
import { describe, expect, it } from 'vitest';
import { bindHostName, hostAllowed, hostHeaderName, normalizeOrigin, parseAllowedOrigins } from './origins.ts';

const allowed = (header: string, bind = '127.0.0.1') => {
  const name = hostHeaderName(header);
  return name !== undefined && hostAllowed(name, bind);
};

describe('Host names', () => {
  it('accepts the loopback names with any port, and refuses other names (DNS rebinding)', () => {
    for (const h of ['127.0.0.1:7310', 'localhost:7310', 'LOCALHOST', '[::1]:7311', '127.0.0.1', '127.0.0.2:80']) {
      expect(allowed(h), h).toBe(true);
    }
    for (const h of ['evil.test:7310', 'localhost.evil.test', 'sub.localhost:7310', '10.0.0.5:7310', '[::2]:7310', 'x@127.0.0.1', '']) {
      expect(allowed(h), h).toBe(false);
    }
  });

  it('accepts the configured --host by name, and any IP literal only when bound to every interface', () => {
    expect(allowed('mybox.lan:7310', 'mybox.lan')).toBe(true);
    expect(allowed('MyBox.lan', 'mybox.lan')).toBe(true);
    expect(allowed('other.lan:7310', 'mybox.lan')).toBe(false);
    expect(allowed('10.0.0.5:7310', '10.0.0.5')).toBe(true);
    expect(allowed('10.0.0.5:7310', '0.0.0.0')).toBe(true);
    expect(allowed('[fe80::1]:7310', '::')).toBe(true);
    // A name still needs to be configured: rebinding works on any name.
    expect(allowed('evil.test:7310', '0.0.0.0')).toBe(false);
    expect(bindHostName('::1')).toBe('[::1]');
  });
});

describe('allowed origins', () => {
  it('normalizes scheme://host[:port] and refuses paths, queries, user info and other schemes', () => {
    expect(normalizeOrigin('http://localhost:5173')).toBe('http://localhost:5173');
    expect(normalizeOrigin('HTTPS://Tools.Example.com:443/')).toBe('https://tools.example.com');
    expect(normalizeOrigin('http://[::1]:3000')).toBe('http://[::1]:3000');
    for (const bad of ['http://a.test/app', 'http://a.test?x=1', 'http://u@a.test', 'ftp://a.test', 'null', 'a.test', 'http://']) {
      expect(normalizeOrigin(bad), bad).toBeUndefined();
    }
  });

  it('parses a list, de-duplicated, naming the first bad entry', () => {
    expect(parseAllowedOrigins(['http://a.test', 'http://A.test/'])).toEqual(['http://a.test']);
    expect(() => parseAllowedOrigins(['http://a.test', 'http://b.test/path'])).toThrow(/http:\/\/b\.test\/path/);
  });
});
