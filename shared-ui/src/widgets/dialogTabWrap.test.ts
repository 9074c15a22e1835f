import { wrapTabInDialogs } from './dialogTabWrap';

describe('wrapTabInDialogs', () => {
  let restore: () => void;
  let unwrap: () => void;
  beforeEach(() => {
    // jsdom lays nothing out: every element counts as shown.
    const original = Element.prototype.getClientRects;
    Element.prototype.getClientRects = function () {
      return [{}] as unknown as DOMRectList;
    };
    restore = () => {
      Element.prototype.getClientRects = original;
    };
    document.body.innerHTML = `
      <button id="behind">Import</button>
      <div role="dialog" aria-modal="true">
        <button id="close">Close</button>
        <input id="name" />
        <button id="save">Save</button>
      </div>`;
    unwrap = wrapTabInDialogs();
  });
  afterEach(() => {
    unwrap();
    restore();
    document.body.innerHTML = '';
  });

  const tab = (shiftKey = false) =>
    document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', shiftKey, bubbles: true, cancelable: true }));

  test('Tab on the last control goes to the first, Shift+Tab on the first to the last', () => {
    document.getElementById('save')!.focus();
    expect(tab()).toBe(false);
    expect(document.activeElement?.id).toBe('close');
    expect(tab(true)).toBe(false);
    expect(document.activeElement?.id).toBe('save');
  });

  test('Tab between the controls inside is left to the browser', () => {
    document.getElementById('close')!.focus();
    expect(tab()).toBe(true);
    expect(document.activeElement?.id).toBe('close');
  });

  test('with no dialog open Tab is untouched', () => {
    document.querySelector('[role="dialog"]')!.remove();
    document.getElementById('behind')!.focus();
    expect(tab()).toBe(true);
  });
});
