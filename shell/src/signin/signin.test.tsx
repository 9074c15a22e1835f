import { act } from 'react';
import { rememberRedirect, TOKEN_KEY } from 'shared-auth/handoff';
import { button, click, mount, textOf, waitFor, type Mounted } from '../testing/dom';
import { browser } from './api';
import { SignedOutApp } from './SignedOutApp';

type Answer = { status: number; body: unknown } | 'offline';

let fetchMock: jest.Mock;
let load: jest.SpyInstance;
let mounted: Mounted | null = null;

function answer(...answers: Answer[]) {
  for (const a of answers) {
    if (a === 'offline') fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    else
      fetchMock.mockResolvedValueOnce({
        ok: a.status < 300,
        status: a.status,
        text: async () => (typeof a.body === 'string' ? a.body : JSON.stringify(a.body)),
      });
  }
}

async function open(url: string) {
  window.history.replaceState(null, '', url);
  mounted = await mount(<SignedOutApp />);
}

const input = (id: string) => {
  const found = document.getElementById(id);
  if (!(found instanceof HTMLInputElement)) throw new Error(`no input #${id}`);
  return found;
};

/** The input a label names (label[for] → input), as a screen reader and Playwright's getByLabel find it. */
function labelled(text: string): HTMLInputElement {
  const label = Array.from(document.querySelectorAll('label')).find((l) => l.textContent === text);
  if (!label) throw new Error(`no label ${text}`);
  return input(label.htmlFor);
}

async function type(element: HTMLInputElement, value: string) {
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  await act(async () => {
    setValue.call(element, value);
    element.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

async function leave(element: HTMLInputElement) {
  await act(async () => {
    element.dispatchEvent(new FocusEvent('focusout', { bubbles: true }));
  });
}

const helpOf = (id: string) => document.getElementById(`${id}_help`)?.textContent ?? null;
const alertText = () => document.querySelector('[role="alert"]')?.textContent ?? null;

beforeEach(() => {
  fetchMock = jest.fn();
  globalThis.fetch = fetchMock as unknown as typeof fetch;
  load = jest.spyOn(browser, 'load').mockImplementation(() => undefined);
  localStorage.clear();
  sessionStorage.clear();
  document.cookie = 'cellwise_cookie_consent=1; path=/';
});

afterEach(() => {
  mounted?.unmount();
  mounted = null;
  load.mockRestore();
  document.cookie = 'cellwise_cookie_consent=; max-age=0; path=/';
});

describe('login', () => {
  test('labels name the fields; an empty submit says "is required" twice and calls nothing', async () => {
    await open('/auth/login');
    expect(textOf('Sign in')?.tagName).toBe('H1');
    expect(labelled('Email').type).toBe('email');
    expect(labelled('Password').type).toBe('password');
    expect(document.activeElement).toBe(labelled('Email'));
    await click(button('Sign in'));
    expect(helpOf('email')).toBe('is required');
    expect(helpOf('password')).toBe('is required');
    expect(labelled('Email').getAttribute('aria-invalid')).toBe('true');
    expect(labelled('Email').getAttribute('aria-describedby')).toBe('email_help');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(alertText()).toBeNull();
  });

  test('an address is checked once the field is left, as the console did', async () => {
    await open('/auth/login');
    await type(labelled('Email'), 'not-an-address');
    expect(helpOf('email')).toBeNull();
    await leave(labelled('Email'));
    expect(helpOf('email')).toBe('is not a valid email');
    await type(labelled('Email'), '   ');
    expect(helpOf('email')).toBe('is required');
    await type(labelled('Email'), 'admin@cellwise.local');
    expect(helpOf('email')).toBeNull();
  });

  test('a refused sign-in shows the server message in role=alert and stays; a dead network says so', async () => {
    answer({ status: 400, body: { message: 'Invalid email or password.' } }, 'offline');
    await open('/auth/login');
    await type(labelled('Email'), 'client@cellwise.local');
    await type(labelled('Password'), 'not-the-password');
    await click(button('Sign in'));
    await waitFor(() => expect(alertText()).toBe('Invalid email or password.'));
    expect(button('Sign in').getAttribute('aria-busy')).toBeNull();
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    await click(button('Sign in'));
    await waitFor(() => expect(alertText()).toBe('Network error!'));
    expect(load).not.toHaveBeenCalled();
  });

  test('signing in stores the token where the console reads it and loads the remembered page in full', async () => {
    answer({ status: 200, body: { token: 'the.jwt.token' } });
    rememberRedirect('/tracking/tracker?filters=x');
    await open('/auth/login');
    await type(labelled('Email'), '  admin@cellwise.local ');
    await type(labelled('Password'), 'Cellwise-Admin-1');
    await click(button('Sign in'));
    await waitFor(() => expect(load).toHaveBeenCalledWith('/tracking/tracker?filters=x'));
    expect(localStorage.getItem(TOKEN_KEY)).toBe('the.jwt.token');
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/auth/login');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ email: 'admin@cellwise.local', password: 'Cellwise-Admin-1' });
  });

  test('without a remembered page the console opens at /home', async () => {
    answer({ status: 200, body: { token: 't' } });
    await open('/auth/login');
    await type(labelled('Email'), 'admin@cellwise.local');
    await type(labelled('Password'), 'Cellwise-Admin-1');
    await click(button('Sign in'));
    await waitFor(() => expect(load).toHaveBeenCalledWith('/home'));
  });
});

describe('recovery', () => {
  test('Forgot your password? opens the recover page in place; sending the link lands on Check your email with the address', async () => {
    answer({ status: 204, body: '' });
    await open('/auth/login');
    await click(textOf('Forgot your password?')!);
    expect(window.location.pathname).toBe('/auth/recover');
    expect(textOf('Recover your password')).not.toBeNull();
    await click(button('Send recovery link'));
    expect(helpOf('email')).toBe('is required');
    await type(labelled('Email'), 'manager@cellwise.local');
    await click(button('Send recovery link'));
    await waitFor(() => expect(textOf('Check your email')).not.toBeNull());
    expect(window.location.pathname).toBe('/auth/resetpassword');
    expect(document.body.textContent).toContain('If manager@cellwise.local belongs to an account');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/auth/recover');
    expect(load).not.toHaveBeenCalled();
  });

  test('a recovery refused by the server shows its message', async () => {
    answer({ status: 429, body: 'Too many requests. Try again later.' });
    await open('/auth/recover');
    await type(labelled('Email'), 'manager@cellwise.local');
    await click(button('Send recovery link'));
    await waitFor(() => expect(alertText()).toBe('Too many requests. Try again later.'));
  });
});

describe('pages from a mailed link', () => {
  test('without token and user the link is incomplete, with a way to ask for a new one', async () => {
    await open('/auth/recoverconfirmation?token=abc');
    expect(textOf('This link is incomplete')).not.toBeNull();
    expect(textOf('Ask for a new link')?.getAttribute('href')).toBe('/auth/recover');
    expect(document.querySelector('form')).toBeNull();
  });

  test('the password rules, then the answer signs in and the console opens at /home', async () => {
    sessionStorage.setItem('cellwiseRedirectAfterLogin', '/tracking/tracker');
    answer({ status: 200, body: { token: 'from.the.link' } });
    await open('/auth/completeregistration?token=tok&user=42');
    expect(textOf('Complete your registration')).not.toBeNull();
    await type(labelled('New password'), 'short');
    await leave(labelled('New password'));
    expect(helpOf('password')).toBe('must have at least 10 characters');
    await type(labelled('New password'), 'Long-Enough-Pass-1');
    await type(labelled('Repeat the password'), 'Long-Enough-Pass-2');
    await leave(labelled('Repeat the password'));
    expect(helpOf('rpassword')).toBe('does not match the password');
    await click(button('Complete registration'));
    expect(fetchMock).not.toHaveBeenCalled();
    await type(labelled('Repeat the password'), 'Long-Enough-Pass-1');
    await click(button('Complete registration'));
    await waitFor(() => expect(load).toHaveBeenCalledWith('/home'));
    expect(localStorage.getItem(TOKEN_KEY)).toBe('from.the.link');
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/auth/completeRegistration');
    expect(JSON.parse(String(init.body))).toEqual({ password: 'Long-Enough-Pass-1', rpassword: 'Long-Enough-Pass-1', token: 'tok', user: '42' });
  });

  test('a used link shows the server message in role=alert', async () => {
    answer({ status: 400, body: { message: 'This link is invalid or has expired.' } });
    await open('/auth/recoverconfirmation?token=tok&user=7');
    expect(textOf('Choose a new password')).not.toBeNull();
    await type(labelled('New password'), 'Third-Password-99');
    await type(labelled('Repeat the password'), 'Third-Password-99');
    await click(button('Save password and sign in'));
    await waitFor(() => expect(alertText()).toBe('This link is invalid or has expired.'));
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/auth/recoverconfirmation');
    expect(load).not.toHaveBeenCalled();
  });
});

test('an /auth/ path that is no page goes to the 404 page', async () => {
  await open('/auth/nope');
  expect(load).toHaveBeenCalledWith('/errors/error-404');
});

test('the cookie banner shows until I Agree sets the consent cookie', async () => {
  document.cookie = 'cellwise_cookie_consent=; max-age=0; path=/';
  await open('/auth/login');
  expect(document.querySelector('[role="region"][aria-label="Cookie consent"]')).not.toBeNull();
  await click(button('I Agree'));
  expect(document.querySelector('[aria-label="Cookie consent"]')).toBeNull();
  expect(document.cookie).toContain('cellwise_cookie_consent=1');
});
