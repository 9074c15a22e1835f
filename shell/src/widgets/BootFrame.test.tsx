import { BOOT_FRAME_ID, BootFrameDone, StartPending } from './BootFrame';
import { mount } from '../testing/dom';

function addBootFrame(): HTMLElement {
  const frame = document.createElement('div');
  frame.id = BOOT_FRAME_ID;
  frame.textContent = 'Commissioning Plan';
  document.body.prepend(frame);
  return frame;
}

afterEach(() => {
  document.getElementById(BOOT_FRAME_ID)?.remove();
  document.body.innerHTML = '';
});

test('while the session starts, the start frame is what the user sees: no second spinner over it', async () => {
  const frame = addBootFrame();
  const view = await mount(<StartPending />);
  expect(frame.isConnected).toBe(true);
  expect(document.querySelector('.ant-spin')).toBeNull();
  view.unmount();
});

test('a page without the start frame (a standalone remote, a test) shows a spinner while the session starts', async () => {
  const view = await mount(<StartPending />);
  expect(document.querySelector('.ant-spin')).not.toBeNull();
  view.unmount();
});

test("the shell's first real screen removes the start frame", async () => {
  const frame = addBootFrame();
  const view = await mount(<BootFrameDone />);
  expect(frame.isConnected).toBe(false);
  expect(document.getElementById(BOOT_FRAME_ID)).toBeNull();
  view.unmount();
});
