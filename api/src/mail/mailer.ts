import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';

export const DEFAULT_FROM = 'Cellwise <no-reply@cellwise.local>';

export interface MailAttachment {
  filename: string;
  content: Buffer | string;
  contentType?: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
}

export interface Mailer {
  /** Where mail goes: the outbox folder, or the SMTP server's host. */
  readonly destination: string;
  /** Sends now; rejects when the mail could not be handed over. */
  sendMail(message: MailMessage): Promise<void>;
  /**
   * Sends without making the caller wait: an answer that waited for SMTP would take longer exactly
   * when an account exists. Given a function, even deciding whether there is a mail (and writing it)
   * happens after the answer; it answers null for no mail. Failures go to `onError`; `idle()` waits
   * for what is still on its way.
   */
  sendLater(message: MailMessage | (() => Promise<MailMessage | null>), onError: (error: unknown) => void): void;
  idle(): Promise<void>;
  close(): Promise<void>;
}

export interface MailerOptions {
  dataDir: string;
  /** smtp:// or smtps://; null writes `.eml` files to DATA_DIR/outbox instead. */
  smtpUrl: string | null;
  from?: string;
}

/** `2026-11-21T19-55-10.123Z`: ISO time without colons, which some file systems refuse. */
function fileStamp(date: Date): string {
  return date.toISOString().replace(/:/g, '-');
}

export function createMailer(options: MailerOptions): Mailer {
  const from = options.from ?? DEFAULT_FROM;
  const pending = new Set<Promise<void>>();
  let deliver: (message: MailMessage) => Promise<void>;
  let shutdown: () => void = () => undefined;
  let destination: string;

  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    destination = new URL(options.smtpUrl).host;
    deliver = async (message) => {
      await transport.sendMail({ from, ...message });
    };
    shutdown = () => transport.close();
  } else {
    const outbox = path.join(options.dataDir, 'outbox');
    destination = outbox;
    // The full RFC 822 message, as an SMTP server would have received it.
    const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    deliver = async (message) => {
      const info = await transport.sendMail({ from, ...message });
      await fs.promises.mkdir(outbox, { recursive: true });
      const name = `${fileStamp(new Date())}-${randomBytes(4).toString('hex')}.eml`;
      // Written under a hidden name and renamed, so whoever watches the outbox never sees half a mail.
      const temporary = path.join(outbox, `.${name}.tmp`);
      await fs.promises.writeFile(temporary, info.message);
      await fs.promises.rename(temporary, path.join(outbox, name));
    };
  }

  return {
    destination,
    sendMail: (message) => deliver(message),
    sendLater(message, onError) {
      const composed = typeof message === 'function' ? Promise.resolve().then(message) : Promise.resolve(message);
      const sending = composed.then((mail) => (mail ? deliver(mail) : undefined)).catch(onError);
      pending.add(sending);
      void sending.finally(() => pending.delete(sending));
    },
    async idle() {
      await Promise.all([...pending]);
    },
    async close() {
      await Promise.all([...pending]);
      shutdown();
    },
  };
}
