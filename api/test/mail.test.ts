import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { confirmationMail, createMailer, parseEml, readOutbox, recoveryMail, sendConfirmationMail } from '../src/mail';

const user = { firstname: 'Zé <b>', lastname: "O'Brien & Filhos", email: 'ze@example.pt' };
const link = `https://console.example.pt/auth/completeregistration?token=${'A1_-'.repeat(11)}&user=12`;

describe('mail to the outbox (no SMTP_URL)', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-mail-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  test('each mail is one complete RFC 822 .eml file named by its time', async () => {
    const mailer = createMailer({ dataDir, smtpUrl: null });
    expect(mailer.destination).toBe(path.join(dataDir, 'outbox'));
    await sendConfirmationMail(mailer, user, link);
    const files = fs.readdirSync(path.join(dataDir, 'outbox'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z-[0-9a-f]{8}\.eml$/);
    const raw = fs.readFileSync(path.join(dataDir, 'outbox', files[0] ?? ''), 'utf8');
    expect(raw).toMatch(/^From: Cellwise <no-reply@cellwise\.local>$/m);
    expect(raw).toMatch(/^To: ze@example\.pt$/m);
    expect(raw).toMatch(/^Subject: Complete your Cellwise registration$/m);
    expect(raw).toMatch(/^Message-ID: <.+>$/m);
    expect(raw).toMatch(/^Content-Type: multipart\/alternative;/m);
    await mailer.close();
  });

  test('the confirmation mail carries the link in plain text and HTML, names escaped in HTML', async () => {
    const mailer = createMailer({ dataDir, smtpUrl: null });
    await sendConfirmationMail(mailer, user, link);
    const [mail] = readOutbox(dataDir);
    expect(mail?.to).toBe('ze@example.pt');
    expect(mail?.text).toContain(`Hello Zé <b> O'Brien & Filhos,`);
    expect(mail?.text).toContain(`\n${link}\n`);
    expect(mail?.text).toMatch(/7 days/);
    expect(mail?.html).toContain(`href="${link.replace('&', '&amp;')}"`);
    expect(mail?.html).toContain('Zé &lt;b&gt; O&#39;Brien &amp; Filhos');
    expect(mail?.html).not.toContain('<b>');
    await mailer.close();
  });

  test('the recovery mail says it lasts one hour', () => {
    const mail = recoveryMail(user, 'https://x.example/auth/recoverconfirmation?token=t&user=1');
    expect(mail).toMatchObject({ to: 'ze@example.pt', subject: 'Reset your Cellwise password' });
    expect(mail.text).toContain('https://x.example/auth/recoverconfirmation?token=t&user=1');
    expect(mail.text).toMatch(/1 hour/);
    expect(mail.html).toContain('href="https://x.example/auth/recoverconfirmation?token=t&amp;user=1"');
  });

  test('sendLater: idle() waits for it; a failure reaches onError instead of the caller', async () => {
    const mailer = createMailer({ dataDir, smtpUrl: null });
    const errors: unknown[] = [];
    mailer.sendLater(confirmationMail(user, link), (e) => errors.push(e));
    await mailer.idle();
    expect(readOutbox(dataDir)).toHaveLength(1);
    expect(errors).toEqual([]);

    const blocked = path.join(dataDir, 'not-a-folder');
    fs.writeFileSync(blocked, '');
    const broken = createMailer({ dataDir: blocked, smtpUrl: null });
    broken.sendLater(confirmationMail(user, link), (e) => errors.push(e));
    await broken.idle();
    expect(errors).toHaveLength(1);
    await expect(broken.sendMail(confirmationMail(user, link))).rejects.toThrow();
  });

  test('nothing half-written is ever visible in the outbox', async () => {
    const mailer = createMailer({ dataDir, smtpUrl: null });
    await Promise.all(Array.from({ length: 5 }, () => mailer.sendMail(confirmationMail(user, link))));
    expect(fs.readdirSync(path.join(dataDir, 'outbox')).filter((f) => !f.endsWith('.eml'))).toEqual([]);
    expect(readOutbox(dataDir)).toHaveLength(5);
  });
});

test('parseEml reads quoted-printable and base64 parts and encoded subjects', () => {
  const raw = [
    'To: ana@example.pt',
    'Subject: =?UTF-8?Q?Ol=C3=A1?=',
    'Content-Type: multipart/alternative; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    'https://x.example/a?token=3Dabc&user=3D=',
    '1 ol=C3=A1',
    '--b1',
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    Buffer.from('<p>olá</p>').toString('base64'),
    '--b1--',
    '',
  ].join('\r\n');
  expect(parseEml(raw)).toEqual({ file: '', to: 'ana@example.pt', subject: 'Olá', text: 'https://x.example/a?token=abc&user=1 olá\n', html: '<p>olá</p>' });
});

/** Just enough SMTP to accept one message, so SMTP_URL is exercised without a mail server. */
function fakeSmtpServer(): Promise<{ url: string; received: Promise<string>; close: () => Promise<void> }> {
  let deliver: (data: string) => void = () => undefined;
  const received = new Promise<string>((resolve) => {
    deliver = resolve;
  });
  const server = net.createServer((socket) => {
    let inData = false;
    let buffer = '';
    let message = '';
    socket.write('220 fake.test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let newline: number;
      while ((newline = buffer.indexOf('\r\n')) !== -1) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            deliver(message);
            socket.write('250 queued\r\n');
          } else message += `${line}\n`;
        } else if (/^(EHLO|HELO)/i.test(line)) socket.write('250 fake.test\r\n');
        else if (/^DATA/i.test(line)) {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      resolve({ url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

test('with SMTP_URL the mail goes to the SMTP server and nothing to the outbox', async () => {
  const smtp = await fakeSmtpServer();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-mail-'));
  const mailer = createMailer({ dataDir, smtpUrl: smtp.url });
  try {
    expect(mailer.destination).toBe(new URL(smtp.url).host);
    await sendConfirmationMail(mailer, user, link);
    const message = await smtp.received;
    expect(message).toMatch(/^Subject: Complete your Cellwise registration$/m);
    expect(message).toMatch(/^To: ze@example\.pt$/m);
    expect(fs.existsSync(path.join(dataDir, 'outbox'))).toBe(false);
  } finally {
    await mailer.close();
    await smtp.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
