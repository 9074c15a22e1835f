import type { FastifyInstance } from 'fastify';
import { sendConfirmationMail, type MailRecipient } from '../mail';
import { issueOneTimeToken } from './one-time-tokens';

/**
 * Where mailed links point: PUBLIC_URL, else the origin this process listens on (the embedded console
 * on one machine). Never the request's Host header: a client chooses it, and a recovery link sent to
 * another host hands that host a valid token.
 */
export function publicBaseUrl(app: FastifyInstance): string {
  const { config } = app.services;
  if (config.publicUrl) return config.publicUrl;
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return `http://localhost:${port}`;
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
export async function mailConfirmationLink(app: FastifyInstance, user: MailRecipient & { id: number }): Promise<void> {
  const token = await issueOneTimeToken(app.services.db, user.id, 'confirm', app.auth.clock());
  await sendConfirmationMail(app.mailer, user, completeRegistrationLink(publicBaseUrl(app), token, user.id));
}
