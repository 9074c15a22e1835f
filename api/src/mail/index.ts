export { createMailer, DEFAULT_FROM, type MailAttachment, type MailMessage, type Mailer, type MailerOptions } from './mailer';
export { confirmationMail, recoveryMail, sendConfirmationMail, sendRecoveryMail, type MailRecipient } from './templates';
export { decodeQuotedPrintable, parseEml, readOutbox, type OutboxMail } from './outbox';
