import type { MailMessage, Mailer } from './mailer';

export interface MailRecipient {
  firstname: string;
  lastname: string;
  email: string;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

function layout(title: string, paragraphs: string[], link: { href: string; label: string }, after: string): string {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  return `<!doctype html>
<html><body style="font-family: Arial, sans-serif; color: #1f1f1f; line-height: 1.5">
<h2 style="color: #0b6e79">${escapeHtml(title)}</h2>
${body}
<p><a href="${escapeHtml(link.href)}" style="display: inline-block; padding: 8px 16px; background: #0b6e79; color: #fff; text-decoration: none; border-radius: 4px">${escapeHtml(link.label)}</a></p>
<p style="font-size: 12px; color: #595959">If the button does not work, copy this address into your browser:<br>${escapeHtml(link.href)}</p>
<p style="font-size: 12px; color: #595959">${escapeHtml(after)}</p>
</body></html>`;
}

function greeting(user: MailRecipient): string {
  const name = `${user.firstname} ${user.lastname}`.trim();
  return name ? `Hello ${name},` : 'Hello,';
}

/** Sent when an account is created (and again on "Resend confirmation email"): the link completes registration. */
export function confirmationMail(user: MailRecipient, link: string): MailMessage {
  const intro = 'An account has been created for you on the Cellwise console. Confirm your email address and choose your password:';
  const after = 'The link works once, for 7 days. If you did not expect this email, you can ignore it.';
  return {
    to: user.email,
    subject: 'Complete your Cellwise registration',
    text: `${greeting(user)}\n\n${intro}\n\n${link}\n\n${after}\n\nCellwise\n`,
    html: layout('Welcome to Cellwise', [greeting(user), intro], { href: link, label: 'Complete registration' }, after),
  };
}

export function recoveryMail(user: MailRecipient, link: string): MailMessage {
  const intro = 'Someone (hopefully you) asked to reset the password of your Cellwise account. Choose a new password here:';
  const after = 'The link works once, for 1 hour. If you did not ask for it, ignore this email: your password stays as it is.';
  return {
    to: user.email,
    subject: 'Reset your Cellwise password',
    text: `${greeting(user)}\n\n${intro}\n\n${link}\n\n${after}\n\nCellwise\n`,
    html: layout('Reset your password', [greeting(user), intro], { href: link, label: 'Choose a new password' }, after),
  };
}

export function sendConfirmationMail(mailer: Mailer, user: MailRecipient, link: string): Promise<void> {
  return mailer.sendMail(confirmationMail(user, link));
}

export function sendRecoveryMail(mailer: Mailer, user: MailRecipient, link: string): Promise<void> {
  return mailer.sendMail(recoveryMail(user, link));
}
