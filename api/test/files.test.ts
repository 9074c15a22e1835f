import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../src/config';
import { MAX_UPLOAD_BYTES, type UploadedFile, type UploadedFiles } from 'contracts';
import { DRAIN_LIMIT_BYTES } from '../src/http/early-answers';
import { exportsDir, newExport, purgeExpiredFiles, QUOTA_MESSAGES, recordExport, resolveUpload, UPLOAD_QUOTA, uploadsDir } from '../src/files';
import { contentDisposition, displayName, zipEntryNames } from '../src/files/content';
import { seed } from '../src/seed';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { zip } from './fixtures/files/zips';
import { emptyWorkbook, JPEG_BYTES, multipart, PNG_BYTES, storedZip } from './fixtures/tracking/workbooks';

const HOUR = 60 * 60 * 1000;

describe('file content checks (pure)', () => {
  it('keeps only the last path segment of a name, without control characters', () => {
    expect(displayName('../../x.xlsx')).toBe('x.xlsx');
    expect(displayName('C:\\a\\b.xlsx')).toBe('b.xlsx');
    expect(displayName('a\u0000b.xlsx')).toBe('ab.xlsx');
    expect(displayName('..')).toBe('file');
    expect(displayName('dir/')).toBe('file');
    expect(displayName(undefined)).toBe('file');
  });
  it('reads zip entry names from the central directory and refuses what is not a zip', () => {
    const zip = storedZip({ 'a.txt': 'x', '[Content_Types].xml': '<Types/>' });
    const readAt = (o: number, l: number) => zip.subarray(o, o + l);
    expect(zipEntryNames(zip, zip.length, readAt)).toEqual(['a.txt', '[Content_Types].xml']);
    const text = Buffer.from('not a zip at all, just some text that is long enough');
    expect(zipEntryNames(text, text.length, (o, l) => text.subarray(o, o + l))).toBeNull();
    // A truncated central directory.
    const broken = Buffer.from(zip);
    broken.writeUInt32LE(0, zip.readUInt32LE(zip.length - 6));
    expect(zipEntryNames(broken, broken.length, (o, l) => broken.subarray(o, o + l))).toBeNull();
  });
  it('writes both content-disposition forms', () => {
    expect(contentDisposition('Relatório "Q1".xlsx')).toBe(`attachment; filename="Relat_rio _Q1_.xlsx"; filename*=UTF-8''Relat%C3%B3rio%20%22Q1%22.xlsx`);
  });
});

describe.each(TEST_DATABASES)('file service on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let config: Config;
  const ids = { admin: 0, os: 0, client: 0, manager: 0 };
  const tokens = { admin: '', os: '', client: '', manager: '' };

  beforeAll(async () => {
    database = await kind.open();
    ({ app, config } = await testApp(database));
    await seed(database.db, config);
    const idOf = async (email: string) => (await database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
    ids.admin = await idOf(config.adminEmail);
    ids.os = await idOf('os@cellwise.local');
    ids.client = await idOf('client@cellwise.local');
    ids.manager = await idOf('manager@cellwise.local');
    for (const who of ['admin', 'os', 'client', 'manager'] as const) tokens[who] = (await app.auth.issueToken(ids[who]))!;
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });

  const auth = (who: keyof typeof tokens) => ({ authorization: `Bearer ${tokens[who]}` });
  const send = (url: string, parts: Parameters<typeof multipart>[0], who: keyof typeof tokens = 'admin') => {
    const body = multipart(parts);
    return app.inject({ method: 'POST', url, payload: body.payload, headers: { ...body.headers, ...auth(who) } });
  };
  const upload = (filename: string, content: Buffer | string, who: keyof typeof tokens = 'admin') =>
    send('/api/File/Upload', [{ name: 'file', filename, content }], who);
  const storedDirs = () => (fs.existsSync(uploadsDir(config.dataDir)) ? fs.readdirSync(uploadsDir(config.dataDir)) : []);

  it('stores an xlsx under an opaque id and a name that is not the user’s', async () => {
    const content = await emptyWorkbook();
    const res = await upload('plan.xlsx', content);
    expect(res.statusCode).toBe(200);
    const body = res.json<UploadedFile>();
    expect(body).toEqual({ uploadId: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'plan.xlsx', size: content.length });
    expect(fs.readdirSync(path.join(uploadsDir(config.dataDir), body.uploadId))).toEqual(['content']);
    const resolved = await resolveUpload(database.db, config.dataDir, body.uploadId, ids.admin, 'xlsx');
    expect(fs.readFileSync(resolved.file)).toEqual(content);
  });

  it('never turns path tricks in a name into a path', async () => {
    const before = storedDirs().length;
    for (const name of ['../../evil.xlsx', 'C:\\Windows\\evil.xlsx', '/etc/evil.xlsx', 'ev\u0000il.xlsx']) {
      const res = await upload(name, await emptyWorkbook());
      expect(res.statusCode).toBe(200);
      expect(res.json<UploadedFile>().name).toMatch(/^evil\.xlsx$/);
    }
    expect(storedDirs().length).toBe(before + 4);
    expect(fs.existsSync(path.join(config.dataDir, 'files', 'evil.xlsx'))).toBe(false);
    expect(fs.existsSync(path.join(config.dataDir, 'evil.xlsx'))).toBe(false);
  });

  it('checks the content against the extension', async () => {
    const before = storedDirs().length;
    const cases: Array<[string, Buffer | string, RegExp]> = [
      ['text.xlsx', 'just text pretending to be a workbook', /not an Excel workbook/],
      ['archive.xlsx', storedZip({ 'readme.txt': 'a zip, not a workbook' }), /not an Excel workbook/],
      ['photo.png', JPEG_BYTES, /not a PNG image/],
      ['logs.zip', 'not a zip', /not a zip archive/],
      ['script.exe', 'MZ', /not accepted/],
      ['noextension', 'x', /not accepted/],
    ];
    for (const [name, content, message] of cases) {
      const res = await upload(name, content);
      expect({ name, status: res.statusCode }).toEqual({ name, status: 400 });
      expect(res.json<{ message: string }>().message).toMatch(message);
    }
    expect(storedDirs().length).toBe(before);
    expect((await upload('logo.png', PNG_BYTES)).statusCode).toBe(200);
    expect((await upload('logs.zip', storedZip({ 'node.log': 'x' }))).statusCode).toBe(200);
  });

  it('accepts exactly 10,000,000 bytes and refuses 10,000,001 with 413, keeping nothing', async () => {
    const before = storedDirs().length;
    // One stored entry 'pad.bin': 30 + 7 (local header) + 46 + 7 (directory) + 22 (end record) = 112 bytes around its data.
    const zipOf = (size: number) => storedZip({ 'pad.bin': 'x'.repeat(size - 112) });
    const tooBig = await upload('big.zip', zipOf(10_000_001));
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toEqual({ message: 'File big.zip not valid. Please check file size.' });
    expect(storedDirs().length).toBe(before);
    const exact = await upload('exact.zip', zipOf(10_000_000));
    expect(exact.statusCode).toBe(200);
    expect(exact.json<UploadedFile>().size).toBe(10_000_000);
  });

  it('uploads several files at once, all or nothing', async () => {
    const ok = await send('/api/File/UploadMultiple', [
      { name: 'files', filename: 'a.xlsx', content: await emptyWorkbook() },
      { name: 'files', filename: 'b.xlsx', content: await emptyWorkbook() },
    ]);
    expect(ok.statusCode).toBe(200);
    expect(ok.json<UploadedFiles>().uploads.map((u) => u.name)).toEqual(['a.xlsx', 'b.xlsx']);

    const before = storedDirs().length;
    const refused = await send('/api/File/UploadMultiple', [
      { name: 'files', filename: 'good.xlsx', content: await emptyWorkbook() },
      { name: 'files', filename: 'bad.xlsx', content: 'text' },
    ]);
    expect(refused.statusCode).toBe(400);
    expect(storedDirs().length).toBe(before);
  });

  it('refuses a second file on File/Upload and a request without a file', async () => {
    const two = await send('/api/File/Upload', [
      { name: 'file', filename: 'a.png', content: PNG_BYTES },
      { name: 'file', filename: 'b.png', content: PNG_BYTES },
    ]);
    expect(two.statusCode).toBe(400);
    const none = await app.inject({ method: 'POST', url: '/api/File/Upload', payload: {}, headers: auth('admin') });
    expect(none.statusCode).toBe(400);
  });

  it('resolves an upload id only for its owner and only for the expected type', async () => {
    const mine = (await upload('plan.xlsx', await emptyWorkbook(), 'os')).json<UploadedFile>().uploadId;
    await expect(resolveUpload(database.db, config.dataDir, mine, ids.admin, 'xlsx')).rejects.toMatchObject({ statusCode: 404, message: 'Upload not found.' });
    await expect(resolveUpload(database.db, config.dataDir, 'nope', ids.os, 'xlsx')).rejects.toMatchObject({ statusCode: 404 });
    await expect(resolveUpload(database.db, config.dataDir, '../../etc/passwd', ids.os, 'xlsx')).rejects.toMatchObject({ statusCode: 404 });
    await expect(resolveUpload(database.db, config.dataDir, mine, ids.os, 'zip')).rejects.toMatchObject({ statusCode: 400 });
    await expect(resolveUpload(database.db, config.dataDir, mine, ids.os, 'xlsx')).resolves.toMatchObject({ name: 'plan.xlsx' });
  });

  it('downloads an export only for its owner, with its name in content-disposition', async () => {
    const pending = newExport(config.dataDir, 'test', 'Plano de comissionamento ç.xlsx');
    fs.writeFileSync(pending.file, await emptyWorkbook());
    const id = await recordExport(database.db, ids.os, pending);

    const res = await app.inject({ url: `/api/File/Download?file=${id}`, headers: auth('os') });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toBe(contentDisposition('Plano de comissionamento ç.xlsx'));
    expect(res.rawPayload).toEqual(fs.readFileSync(pending.file));

    expect((await app.inject({ url: `/api/File/Download?file=${id}`, headers: auth('admin') })).statusCode).toBe(404);
    expect((await app.inject({ url: '/api/File/Download?file=00000000-0000-0000-0000-000000000000', headers: auth('os') })).statusCode).toBe(404);
    expect((await app.inject({ url: '/api/File/Download?file=..%2F..%2Fcellwise.sqlite', headers: auth('os') })).statusCode).toBe(404);
    expect((await app.inject({ url: `/api/File/Download?file=${id}` })).statusCode).toBe(401);
  });

  it('refuses zips whose directory holds unsafe names, nested archives or more than 10,000 entries, keeping nothing', async () => {
    const before = storedDirs().length;
    const cases: Array<[Buffer, string]> = [
      [
        zip([{ name: '../../etc/cron.d/evil', data: 'x' }]),
        'File logs.zip holds an entry named "../../etc/cron.d/evil", which is not a plain relative path; it is refused.',
      ],
      [zip([{ name: '/etc/passwd', data: 'x' }]), 'File logs.zip holds an entry named "/etc/passwd", which is not a plain relative path; it is refused.'],
      [zip([{ name: 'inner.zip', data: storedZip({ 'a.log': 'x' }) }]), 'File logs.zip holds another archive (inner.zip); nested archives are refused.'],
      [
        zip(Array.from({ length: 10_001 }, (_, i) => ({ name: `f${i}.log`, data: '', method: 0 as const }))),
        'File logs.zip has more than 10,000 entries; the limit is 10,000.',
      ],
    ];
    for (const [content, message] of cases) {
      const res = await upload('logs.zip', content);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message });
    }
    expect(storedDirs().length).toBe(before);
    const ok = await upload('logs.zip', zip(Array.from({ length: 10_000 }, (_, i) => ({ name: `logs/f${i}.log`, data: '', method: 0 as const }))));
    expect(ok.statusCode).toBe(200);
  });

  it('keeps each user within the upload quota: 429 beyond it, nothing stored, other users unaffected', async () => {
    const count = async (userId: number) =>
      Number(
        (
          await database.db
            .selectFrom('file_uploads')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('user_id', '=', userId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = storedDirs().length;
    const initially = await count(ids.client);
    for (let stored = initially; stored < UPLOAD_QUOTA.maxFiles; stored += 1) expect((await upload('logo.png', PNG_BYTES, 'client')).statusCode).toBe(200);
    const refused = await upload('logo.png', PNG_BYTES, 'client');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: QUOTA_MESSAGES.files });
    const many = await send('/api/File/UploadMultiple', [{ name: 'files', filename: 'a.png', content: PNG_BYTES }], 'client');
    expect(many.statusCode).toBe(429);
    expect(await count(ids.client)).toBe(UPLOAD_QUOTA.maxFiles);
    expect(storedDirs().length).toBe(before + UPLOAD_QUOTA.maxFiles - initially);
    expect((await upload('logo.png', PNG_BYTES, 'os')).statusCode).toBe(200);

    // Bytes: a user holding nearly 200 MB may not add a file that passes it.
    await database.db
      .insertInto('file_uploads')
      .values({
        id: '00000000-0000-4000-8000-000000000001',
        user_id: ids.manager,
        name: 'big.zip',
        extension: 'zip',
        size: UPLOAD_QUOTA.maxBytes - 10,
        created_at: new Date().toISOString(),
      })
      .execute();
    const tooMuch = await upload('logo.png', PNG_BYTES, 'manager');
    expect(tooMuch.statusCode).toBe(429);
    expect(tooMuch.json()).toEqual({ message: QUOTA_MESSAGES.bytes });
  });

  it('marks an upload used when an import resolves it, and purges expired uploads, exports and leftovers', async () => {
    const now = Date.now();
    const used = (await upload('used.png', PNG_BYTES, 'os')).json<UploadedFile>().uploadId;
    const unused = (await upload('unused.png', PNG_BYTES, 'os')).json<UploadedFile>().uploadId;
    await resolveUpload(database.db, config.dataDir, used, ids.os, 'png', now);
    const row = await database.db.selectFrom('file_uploads').select('consumed_at').where('id', '=', used).executeTakeFirstOrThrow();
    expect(row.consumed_at).toBe(new Date(now).toISOString());
    const pending = newExport(config.dataDir, 'test', 'old.xlsx');
    fs.writeFileSync(pending.file, 'x');
    const exportId = await recordExport(database.db, ids.os, pending);
    const stray = path.join(uploadsDir(config.dataDir), '11111111-2222-4333-8444-555555555555');
    fs.mkdirSync(stray, { recursive: true });
    const exists = async (id: string) => (await database.db.selectFrom('file_uploads').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

    // An hour and a bit later: the used upload is gone, the unused one stays.
    await purgeExpiredFiles(database.db, config.dataDir, now + HOUR + 1000);
    expect([await exists(used), await exists(unused)]).toEqual([false, true]);
    expect(fs.existsSync(path.join(uploadsDir(config.dataDir), used))).toBe(false);
    expect(fs.existsSync(path.join(uploadsDir(config.dataDir), unused))).toBe(true);

    // A day later: unused uploads and unrecorded leftovers too; the export stays for a week.
    const dayLater = await purgeExpiredFiles(database.db, config.dataDir, now + 24 * HOUR + 1000);
    expect(await exists(unused)).toBe(false);
    expect(dayLater.orphans).toBeGreaterThanOrEqual(1);
    expect(fs.existsSync(stray)).toBe(false);
    expect((await app.inject({ url: `/api/File/Download?file=${exportId}`, headers: auth('os') })).statusCode).toBe(200);
    await purgeExpiredFiles(database.db, config.dataDir, now + 7 * 24 * HOUR + 1000);
    expect((await app.inject({ url: `/api/File/Download?file=${exportId}`, headers: auth('os') })).statusCode).toBe(404);
    expect(fs.existsSync(pending.file)).toBe(false);
    expect(fs.readdirSync(exportsDir(config.dataDir))).toEqual([]);
    // The quota frees up with them.
    expect((await upload('logo.png', PNG_BYTES, 'client')).statusCode).toBe(200);
  });

  it('runs the purge when the app starts, on the app clock, and stops it when the app closes', async () => {
    const pending = newExport(config.dataDir, 'test', 'old.xlsx');
    fs.writeFileSync(pending.file, 'x');
    const exportId = await recordExport(database.db, ids.os, pending);
    const later = await testApp(database, { DATA_DIR: config.dataDir }, { clock: () => Date.now() + 8 * 24 * HOUR });
    try {
      const row = await database.db.selectFrom('file_exports').select('id').where('id', '=', exportId).executeTakeFirst();
      expect(row).toBeUndefined();
      expect(fs.existsSync(pending.file)).toBe(false);
    } finally {
      await later.app.close();
    }
  });

  describe('an upload refused before its body is read leaves no connection hanging (issue 44)', () => {
    let port = 0;
    beforeAll(async () => {
      await app.listen({ host: '127.0.0.1', port: 0 });
      port = (app.server.address() as AddressInfo).port;
    });

    /**
     * Sends an 11 MB upload whose last half megabyte is still on its way when the server answers (a
     * browser's upload is), then a second request on the same connection, as a client reusing a
     * kept-alive connection does; reads until both are answered, the server closes, or 15 s pass.
     */
    async function uploadThenAsk(
      who: keyof typeof tokens,
      size = MAX_UPLOAD_BYTES + 1_000_000,
    ): Promise<{ statuses: number[]; closedByServer: boolean; hung: boolean }> {
      const body = multipart([{ name: 'file', filename: 'huge.zip', content: Buffer.alloc(size) }]).payload;
      const boundary = /boundary=(.+)$/.exec(multipart([]).headers['content-type']!)![1];
      const head = [
        'POST /api/File/Upload HTTP/1.1',
        'Host: 127.0.0.1',
        `Authorization: Bearer ${tokens[who]}`,
        `Content-Type: multipart/form-data; boundary=${boundary}`,
        `Content-Length: ${body.length}`,
        '',
        '',
      ].join('\r\n');
      const socket = net.connect(port, '127.0.0.1');
      let received = '';
      let closedByServer = false;
      const statuses = () => [...received.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
      const answered = (count: number) => statuses().length >= count && /\r\n\r\n/.test(received.slice(received.lastIndexOf('HTTP/1.1')));
      socket.on('data', (chunk) => (received += chunk.toString('latin1')));
      socket.on('end', () => (closedByServer = true));
      // A server that closes while the rest is still being sent resets the connection: closed, not hung.
      socket.on('error', () => (closedByServer = true));
      const until = async (done: () => boolean, ms: number) => {
        for (const end = Date.now() + ms; !done() && !closedByServer && Date.now() < end;) await new Promise((r) => setTimeout(r, 20));
      };
      const write = (data: Buffer | string) =>
        new Promise<void>((resolve) => {
          if (closedByServer || socket.write(data)) resolve();
          else socket.once('drain', resolve).once('close', resolve);
        });
      try {
        await write(head);
        const held = body.length - 500_000;
        for (let at = 0; at < held && !closedByServer; at += 65_536) await write(body.subarray(at, Math.min(at + 65_536, held)));
        await until(() => answered(1), 10_000);
        await write(body.subarray(held));
        await write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
        await until(() => answered(2), 15_000);
        return { statuses: statuses(), closedByServer, hung: !closedByServer && !answered(2) };
      } finally {
        socket.destroy();
      }
    }

    it('a file over the size limit (413) and a user over the quota (429): the next request on the connection is answered, or the server closes it', async () => {
      const tooBig = await uploadThenAsk('os');
      expect(tooBig).toEqual({ statuses: tooBig.closedByServer ? [413] : [413, 200], closedByServer: expect.any(Boolean), hung: false });

      // Past what is worth reading to its end (DRAIN_LIMIT_BYTES), the connection is closed instead.
      const huge = await uploadThenAsk('os', DRAIN_LIMIT_BYTES + 4_000_000);
      expect([huge.closedByServer, huge.hung]).toEqual([true, false]);

      const row = '00000000-0000-4000-8000-0000000000aa';
      await database.db
        .insertInto('file_uploads')
        .values({ id: row, user_id: ids.manager, name: 'held.zip', extension: 'zip', size: UPLOAD_QUOTA.maxBytes + 1, created_at: new Date().toISOString() })
        .execute();
      try {
        const overQuota = await uploadThenAsk('manager');
        expect(overQuota).toEqual({ statuses: overQuota.closedByServer ? [429] : [429, 200], closedByServer: expect.any(Boolean), hung: false });
      } finally {
        await database.db.deleteFrom('file_uploads').where('id', '=', row).execute();
      }
    }, 60_000);
  });

  it('lets any signed-in user upload (Client included), nobody anonymous', async () => {
    expect((await upload('logo.png', PNG_BYTES, 'client')).statusCode).toBe(200);
    const body = multipart([{ name: 'file', filename: 'logo.png', content: PNG_BYTES }]);
    expect((await app.inject({ method: 'POST', url: '/api/File/Upload', payload: body.payload, headers: body.headers })).statusCode).toBe(401);
  });
});
