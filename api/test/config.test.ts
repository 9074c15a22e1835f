import path from 'node:path';
import { ConfigError, DEFAULT_ADMIN_EMAIL, loadConfig, REPO_ROOT } from '../src/config';

describe('configuration from the environment', () => {
  test('defaults need nothing set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8080, databaseUrl: null, redisUrl: null, publicUrl: null, adminEmail: DEFAULT_ADMIN_EMAIL, demoData: true });
    expect(config.dataDir).toBe(path.join(REPO_ROOT, 'data'));
  });

  test('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000',
      DATA_DIR: '/srv/cellwise',
      DATABASE_URL: 'postgres://u@db:5432/cellwise',
      REDIS_URL: 'redis://cache:6379',
      SMTP_URL: 'smtp://mail:25',
      JWT_SECRET: 'x'.repeat(40),
      ADMIN_EMAIL: 'ops@example.pt',
      ADMIN_PASSWORD: 'long-enough-password',
      DEMO_DATA: '0',
      PUBLIC_URL: 'https://cellwise.example.pt/',
      REMOTE_TRACKING_URL: 'https://cdn.example.pt/tracking/mf-manifest.json',
    });
    expect(config).toMatchObject({
      port: 9000,
      dataDir: '/srv/cellwise',
      databaseUrl: 'postgres://u@db:5432/cellwise',
      redisUrl: 'redis://cache:6379',
      smtpUrl: 'smtp://mail:25',
      demoData: false,
      publicUrl: 'https://cellwise.example.pt',
      remoteUrls: { tracking: 'https://cdn.example.pt/tracking/mf-manifest.json' },
    });
  });

  test('every bad value is reported at once, with what was wrong', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', JWT_SECRET: 'short', ADMIN_EMAIL: 'nope', DEMO_DATA: 'maybe', REMOTE_MONITORING_URL: 'ftp://x' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'PORT must be a whole number from 0 to 65535 (got "eighty")',
      'DATABASE_URL must use postgres:// or postgresql:// (got mysql://)',
      'JWT_SECRET must be at least 32 characters long',
      'ADMIN_EMAIL is not a valid email address (got "nope")',
      'DEMO_DATA must be 1 or 0 (got "maybe")',
      'REMOTE_MONITORING_URL must use http:// or https:// (got ftp://)',
    ]);
  });

  test('PUBLIC_URL must be an http(s) URL', () => {
    expect(() => loadConfig({ PUBLIC_URL: 'cellwise.example.pt' })).toThrow('PUBLIC_URL is not a valid URL');
    expect(() => loadConfig({ PUBLIC_URL: 'javascript://x' })).toThrow('PUBLIC_URL must use http:// or https://');
    expect(loadConfig({ PUBLIC_URL: 'http://10.0.0.5:8080' }).publicUrl).toBe('http://10.0.0.5:8080');
  });

  test('a password equal to the email is refused', () => {
    expect(() => loadConfig({ ADMIN_EMAIL: 'someone@example.pt', ADMIN_PASSWORD: 'someone@example.pt' })).toThrow(
      'ADMIN_PASSWORD must differ from ADMIN_EMAIL',
    );
  });
});
