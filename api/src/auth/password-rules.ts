import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';

export const MIN_PASSWORD_LENGTH = 10;

/**
 * zxcvbn's score from 0 to 4 (log10 of the guesses an attacker needs: < 3, < 6, < 8, < 10, more).
 * Scores 0 and 1 are passwords found at or near the top of the common-password lists (`password123`,
 * `qwertyuiop`, `P@ssw0rd123`, `dragon1234`), keyboard walks, sequences and repeats: guessed within a
 * million tries, which the sign-in limits slow but a copied hash does not.
 */
const MIN_SCORE = 2;

export const PASSWORD_MESSAGES = {
  // The wording of docs/architecture.md#accounts-sessions-and-abuse-limits, as the console has always said it.
  tooShort: `The password must have at least ${MIN_PASSWORD_LENGTH} characters.`,
  isEmail: 'The password must not be your email address.',
  blank: 'The password must not be only spaces.',
  oneCharacter: 'The password must not be one character repeated.',
  guessable: 'This password is too common or too easy to guess (a well-known password, a keyboard pattern, a sequence or a repeat): choose another.',
  reused: 'The new password must differ from your current password.',
} as const;

/**
 * zxcvbn judges this many characters. Its matching grows fast with length and runs on the event loop (a
 * 256-character password took 0.7 s, 50 characters 0.3 s, on a loaded machine), while the common lists'
 * entries are far shorter: a password whose first 32 characters are not guessable is not guessable.
 */
const JUDGED_LENGTH = 32;

let estimator: ZxcvbnFactory | null = null;

/** Built on first use: reading the common-password and name dictionaries takes a moment nobody should wait for at start-up. */
function strength(password: string, userInputs: string[]): number {
  estimator ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs, maxLength: JUDGED_LENGTH });
  return estimator.check(password, userInputs).score;
}

/** The email and its parts, so `maria.silva2024` is judged as weak for maria.silva@… as it is. */
function personalWords(email: string): string[] {
  const lower = email.trim().toLowerCase();
  const [local = '', domain = ''] = lower.split('@');
  return [lower, local, local.replace(/[._+-]+/g, ''), ...local.split(/[._+-]+/), ...domain.split('.')].filter((word) => word.length >= 3);
}

/**
 * Why a password is refused, or null when it is acceptable: at least 10 characters, not blank, not one
 * character repeated, not the email, and not common or easily guessed (zxcvbn-ts with its common
 * password, name and keyboard dictionaries).
 */
export function passwordProblem(password: string, email: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return PASSWORD_MESSAGES.tooShort;
  if (password.trim() === '') return PASSWORD_MESSAGES.blank;
  if (/^(.)\1*$/su.test(password)) return PASSWORD_MESSAGES.oneCharacter;
  if (password.trim().toLowerCase() === email.trim().toLowerCase()) return PASSWORD_MESSAGES.isEmail;
  if (strength(password, personalWords(email)) < MIN_SCORE) return PASSWORD_MESSAGES.guessable;
  return null;
}
