import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { sendConfirmationMail, type MailRecipient } from '../mail';
import { issueOneTimeToken } from './one-time-tokens';

const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** Where mailed links point: PUBLIC_URL, else the origin the request came to. */
export function publicBaseUrl(request: FastifyRequest, config: Pick<Config, 'publicUrl'>): string {
  if (config.publicUrl) return config.publicUrl;
  const host = HOST.test(request.host) ? request.host : 'localhost';
  return `${request.protocol}://${host}`;
}

export function completeRegistrationLink(baseUrl: string, token: string, userId: number): string {
  return `${baseUrl}/auth/completeregistration?token=${encodeURIComponent(token)}&user=${userId}`;
}

export function recoveryLink(baseUrl: string, token: string, userId: number): string {
  return `${baseUrl}/auth/recoverconfirmation?token=${encodeURIComponent(token)}&user=${userId}`;
}

/**
 * Issues a confirmation token (the previous link stops working) and mails the link that completes
 * registration. For Users/CreateUser and Users/ResendConfirmationEmail.
 */
export async function mailConfirmationLink(app: FastifyInstance, request: FastifyRequest, user: MailRecipient & { id: number }): Promise<void> {
  const token = await issueOneTimeToken(app.services.db, user.id, 'confirm', app.auth.clock());
  await sendConfirmationMail(app.mailer, user, completeRegistrationLink(publicBaseUrl(request, app.services.config), token, user.id));
}
