import path from 'node:path';
import { PASSWORD_MESSAGES } from '../src/auth/password-rules';
import { ConfigError, DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD, DEFAULT_MAP_TILE_URL, loadConfig, REPO_ROOT } from '../src/config';

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

  test('a deployment (DATABASE_URL) needs ADMIN_PASSWORD and gets demo data only when it asks for it (issue 49)', () => {
    const postgres = 'postgres://u@db:5432/cellwise';
    expect(() => loadConfig({ DATABASE_URL: postgres })).toThrow(
      "ADMIN_PASSWORD is required with DATABASE_URL: a deployment's first administrator gets no default password",
    );
    expect(loadConfig({ DATABASE_URL: postgres, ADMIN_PASSWORD: 'Harbour-Lights-31' })).toMatchObject({ demoData: false, adminPassword: 'Harbour-Lights-31' });
    expect(loadConfig({ DATABASE_URL: postgres, ADMIN_PASSWORD: 'Harbour-Lights-31', DEMO_DATA: '1' }).demoData).toBe(true);
    // The embedded SQLite file keeps the defaults a first try needs.
    expect(loadConfig({ DATABASE_URL: '' })).toMatchObject({ databaseUrl: null, demoData: true, adminPassword: DEFAULT_ADMIN_PASSWORD });
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

  test('the first administrator’s password follows the password rules (issue 44)', () => {
    expect(() => loadConfig({ ADMIN_PASSWORD: '          ' })).toThrow('ADMIN_PASSWORD: The password must not be only spaces.');
    expect(() => loadConfig({ ADMIN_PASSWORD: '1111111111' })).toThrow('ADMIN_PASSWORD: The password must not be one character repeated.');
    expect(() => loadConfig({ ADMIN_PASSWORD: 'password123' })).toThrow(`ADMIN_PASSWORD: ${PASSWORD_MESSAGES.guessable}`);
    expect(loadConfig({ ADMIN_PASSWORD: 'Harbour-Lights-31' }).adminPassword).toBe('Harbour-Lights-31');
  });

  test('HSTS_MAX_AGE: whole seconds up to two years, or unset for no header (issue 44)', () => {
    expect(loadConfig({}).hstsMaxAge).toBeNull();
    expect(loadConfig({ HSTS_MAX_AGE: '31536000' }).hstsMaxAge).toBe(31_536_000);
    expect(loadConfig({ HSTS_MAX_AGE: ' 0 ' }).hstsMaxAge).toBe(0);
    for (const bad of ['-1', '1y', '1.5', '63072001', '1e9', 'yes']) {
      expect(() => loadConfig({ HSTS_MAX_AGE: bad })).toThrow(
        `HSTS_MAX_AGE must be a whole number of seconds from 0 to 63072000 (two years; 31536000 is one) (got "${bad}")`,
      );
    }
  });

  describe('BI servers and the map tiles', () => {
    const POWERBI = { POWERBI_TENANT_ID: 'contoso.onmicrosoft.com', POWERBI_CLIENT_ID: 'app-id', POWERBI_CLIENT_SECRET: 'the-secret' };
    const TABLEAU = { TABLEAU_URL: 'https://tableau.example.pt/' };
    const problemsOf = (env: NodeJS.ProcessEnv): string[] => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };

    test("none configured by default; the tiles are OpenStreetMap's", () => {
      expect(loadConfig({})).toMatchObject({ biServers: [], mapTileUrl: 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png' });
      expect(DEFAULT_MAP_TILE_URL).toBe('https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png');
    });

    test('Power BI with its defaults, Tableau with its origin; the optional variables are read', () => {
      expect(loadConfig({ ...POWERBI, ...TABLEAU }).biServers).toEqual([
        {
          id: 'powerbi',
          type: 'PowerBI',
          name: 'Power BI',
          tenantId: 'contoso.onmicrosoft.com',
          clientId: 'app-id',
          clientSecret: 'the-secret',
          authorityUrl: 'https://login.microsoftonline.com',
          apiUrl: 'https://api.powerbi.com',
          embedOrigin: 'https://app.powerbi.com',
        },
        {
          id: 'tableau',
          type: 'Tableau',
          name: 'Tableau',
          url: 'https://tableau.example.pt',
          origin: 'https://tableau.example.pt',
          site: null,
          ticketUrl: 'https://tableau.example.pt',
          user: null,
        },
      ]);
      const config = loadConfig({
        ...POWERBI,
        POWERBI_NAME: 'Rollout BI',
        POWERBI_AUTHORITY_URL: 'https://login.microsoftonline.us/',
        POWERBI_API_URL: 'https://api.powerbigov.us',
        POWERBI_EMBED_ORIGIN: 'https://app.powerbigov.us/',
        ...TABLEAU,
        TABLEAU_URL: 'https://bi.example.pt:8443/tableau',
        TABLEAU_SITE: 'rollout',
        TABLEAU_NAME: 'Rollout Tableau',
        TABLEAU_USER: 'embed@example.pt',
        TABLEAU_TICKET_URL: 'https://tableau-internal.example.pt:8443/',
        MAP_TILE_URL: 'https://tiles.example.pt/{z}/{x}/{y}.png',
      });
      expect(config.biServers).toMatchObject([
        { name: 'Rollout BI', authorityUrl: 'https://login.microsoftonline.us', apiUrl: 'https://api.powerbigov.us', embedOrigin: 'https://app.powerbigov.us' },
        {
          name: 'Rollout Tableau',
          url: 'https://bi.example.pt:8443/tableau',
          origin: 'https://bi.example.pt:8443',
          site: 'rollout',
          ticketUrl: 'https://tableau-internal.example.pt:8443',
          user: 'embed@example.pt',
        },
      ]);
      expect(config.mapTileUrl).toBe('https://tiles.example.pt/{z}/{x}/{y}.png');
    });

    test('a partial configuration names the variables still missing', () => {
      expect(problemsOf({ POWERBI_TENANT_ID: 'contoso.onmicrosoft.com' })).toEqual([
        'Power BI is partly configured: set POWERBI_CLIENT_ID, POWERBI_CLIENT_SECRET too (POWERBI_TENANT_ID, POWERBI_CLIENT_ID, POWERBI_CLIENT_SECRET go together)',
      ]);
      // An optional variable alone is half a configuration too: it says a server was meant.
      expect(problemsOf({ TABLEAU_SITE: 'rollout' })).toEqual(['Tableau is partly configured: set TABLEAU_URL too (TABLEAU_SITE is read only with it)']);
      expect(problemsOf({ TABLEAU_TICKET_URL: 'https://tableau-internal.example.pt', TABLEAU_USER: 'embed' })).toEqual([
        'Tableau is partly configured: set TABLEAU_URL too (TABLEAU_USER, TABLEAU_TICKET_URL are read only with it)',
      ]);
    });

    test('the connected-app variables are refused with what replaced them, with or without TABLEAU_URL, whatever else is right', () => {
      const replaced = (them: string) =>
        `no longer read: Tableau embeds use trusted tickets, which need no secret. Remove ${them}, set TABLEAU_URL (and TABLEAU_TICKET_URL if the console ` +
        "reaches Tableau Server at another address), and add the console server's address to Tableau Server's trusted hosts";
      expect(problemsOf({ ...TABLEAU, TABLEAU_CLIENT_ID: 'ca-id', TABLEAU_SECRET_ID: 'sid', TABLEAU_SECRET_VALUE: 'connected-app-secret-value' })).toEqual([
        `TABLEAU_CLIENT_ID, TABLEAU_SECRET_ID, TABLEAU_SECRET_VALUE are ${replaced('them')}`,
      ]);
      expect(problemsOf({ TABLEAU_SECRET_VALUE: 'connected-app-secret-value' })).toEqual([`TABLEAU_SECRET_VALUE is ${replaced('it')}`]);
      // The message never quotes the value.
      expect(problemsOf({ TABLEAU_SECRET_VALUE: 'connected-app-secret-value' }).join('\n')).not.toContain('connected-app-secret-value');
      // Blank counts as not set, as for every other variable.
      expect(loadConfig({ ...TABLEAU, TABLEAU_CLIENT_ID: '  ' }).biServers).toHaveLength(1);
    });

    test('BI addresses are https (http only on localhost), plain endpoints, a tenant and site that are names', () => {
      expect(problemsOf({ ...POWERBI, POWERBI_API_URL: 'http://api.powerbi.com' })).toEqual([
        'POWERBI_API_URL must use https:// (http:// only for localhost) (got http://)',
      ]);
      expect(loadConfig({ ...POWERBI, POWERBI_AUTHORITY_URL: 'http://127.0.0.1:9999' }).biServers[0]).toMatchObject({ authorityUrl: 'http://127.0.0.1:9999' });
      expect(problemsOf({ ...POWERBI, POWERBI_EMBED_ORIGIN: 'https://app.powerbi.com/reportEmbed' })).toEqual([
        'POWERBI_EMBED_ORIGIN must be an origin (scheme, host and port only), e.g. https://app.powerbi.com',
      ]);
      expect(problemsOf({ ...POWERBI, POWERBI_TENANT_ID: '../common' })).toEqual(['POWERBI_TENANT_ID must be a tenant id (GUID) or domain name']);
      expect(problemsOf({ ...TABLEAU, TABLEAU_URL: 'tableau.example.pt' })).toEqual(['TABLEAU_URL is not a valid URL']);
      expect(problemsOf({ ...TABLEAU, TABLEAU_URL: 'https://user:pw@tableau.example.pt' })).toEqual([
        'TABLEAU_URL must not carry credentials, a query or a fragment',
      ]);
      expect(problemsOf({ ...TABLEAU, TABLEAU_SITE: 'a/b' })).toEqual([`TABLEAU_SITE must be a site's content URL (letters, digits, - and _) (got "a/b")`]);
      // Tickets are bearer credentials: asked for over https, or over http only on this machine.
      expect(problemsOf({ ...TABLEAU, TABLEAU_TICKET_URL: 'http://tableau-internal.example.pt' })).toEqual([
        'TABLEAU_TICKET_URL must use https:// (http:// only for localhost) (got http://)',
      ]);
      expect(problemsOf({ ...TABLEAU, TABLEAU_TICKET_URL: 'https://tableau.example.pt/?x=1' })).toEqual([
        'TABLEAU_TICKET_URL must not carry credentials, a query or a fragment',
      ]);
      expect(loadConfig({ ...TABLEAU, TABLEAU_TICKET_URL: 'http://127.0.0.1:8000' }).biServers[0]).toMatchObject({
        url: 'https://tableau.example.pt',
        origin: 'https://tableau.example.pt',
        ticketUrl: 'http://127.0.0.1:8000',
      });
    });

    test('MAP_TILE_URL: http(s), a tile template, {s} only in the first label of the host', () => {
      expect(problemsOf({ MAP_TILE_URL: 'ftp://tiles.example.pt/{z}/{x}/{y}.png' })).toEqual(['MAP_TILE_URL must use http:// or https:// (got ftp://)']);
      expect(problemsOf({ MAP_TILE_URL: 'tiles' })).toEqual(['MAP_TILE_URL is not a valid URL']);
      expect(problemsOf({ MAP_TILE_URL: 'https://tiles.example.pt/map.png' })).toEqual([
        `MAP_TILE_URL must hold {z}, {x}, {y} (a tile template such as ${DEFAULT_MAP_TILE_URL})`,
      ]);
      expect(problemsOf({ MAP_TILE_URL: 'https://tiles.{s}.example.pt/{z}/{x}/{y}.png' })).toEqual([
        'MAP_TILE_URL may hold a placeholder in its host only as {s} in the first label (e.g. https://{s}.tile.openstreetmap.org/…)',
      ]);
      expect(loadConfig({ MAP_TILE_URL: 'http://localhost:8081/tiles/{z}/{x}/{-y}.png' }).mapTileUrl).toBe('http://localhost:8081/tiles/{z}/{x}/{-y}.png');
    });
  });
});
