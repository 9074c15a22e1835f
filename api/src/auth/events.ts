import { EventEmitter } from 'node:events';

export interface AccountEventMap {
  /** After a password change or a recovery; the notifications feature tells the user. */
  passwordChanged: [userId: number];
}

/** Account events for features that react to them without the account routes knowing those features. */
export const accountEvents = new EventEmitter<AccountEventMap>();
