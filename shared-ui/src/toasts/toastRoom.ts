import { useEffect, useLayoutEffect, useRef, useState } from 'react';

/** The corner antd draws the console's toasts in (TOAST_PLACEMENT), appended to the body when the first toast shows. */
const TOAST_CORNER = '.ant-notification-bottomRight';

/** How far above the screen's bottom the stack of toasts reaches now (0 with none). */
function stackReach(): number {
  const notices = document.querySelectorAll(`${TOAST_CORNER} .ant-notification-notice-wrapper, ${TOAST_CORNER} .ant-notification-notice`);
  let top = Infinity;
  for (const notice of Array.from(notices)) {
    const box = notice.getBoundingClientRect();
    if (box.height > 0) top = Math.min(top, box.top);
  }
  return top === Infinity ? 0 : Math.max(0, Math.ceil(window.innerHeight - top));
}

function atEnd(): boolean {
  const doc = document.documentElement;
  return window.scrollY + window.innerHeight >= doc.scrollHeight - 2;
}

/**
 * The room a page keeps below its content (the page adds its own margin): at least `base` (one
 * toast), and while toasts show, as tall as their stack (specification §9: up to three, bottom right, 4 s), so that scrolled to its end, a
 * page's last row and pager lie above the toasts rather than under them. A page already at its end when
 * the stack grows is kept at its end, so its last row moves up out from under the new toast instead of
 * being covered (on Users three toasts in a row covered the last row's actions: issue 47, fix 6).
 * The room shrinks back only when the stack does, never below `base`, so the page does not jump as a
 * toast comes and goes within the one-toast room.
 */
export function useToastRoom(base: number): number {
  const [room, setRoom] = useState(base);
  const keepEnd = useRef(false);
  // Once the taller room is drawn, before the screen shows it: back to the (new) end.
  useLayoutEffect(() => {
    if (!keepEnd.current) return;
    keepEnd.current = false;
    window.scrollTo(0, document.documentElement.scrollHeight);
  }, [room]);
  useEffect(() => {
    let frame = 0;
    let current = base;
    const measure = () => {
      frame = 0;
      const next = Math.max(base, stackReach());
      if (next === current) return;
      keepEnd.current = next > current && atEnd();
      current = next;
      setRoom(next);
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(measure);
    };
    // A notice's entry and exit are CSS motions: measure on every change inside the corner and again as
    // each motion ends, when the notices stand where they stay. The corner's portal is appended to the
    // body with the first toast, so the body's own children are watched for it (not its whole subtree:
    // that would measure on every change a table makes).
    const inCorner = new MutationObserver(schedule);
    let watched: Element | null = null;
    const findCorner = () => {
      const corner = document.querySelector(TOAST_CORNER);
      if (corner && corner !== watched) {
        inCorner.disconnect();
        inCorner.observe(corner, { childList: true, subtree: true, attributes: true, attributeFilter: ['class', 'style'] });
        watched = corner;
      }
      schedule();
    };
    const bodyChildren = new MutationObserver(findCorner);
    bodyChildren.observe(document.body, { childList: true });
    document.addEventListener('transitionend', schedule, true);
    document.addEventListener('animationend', schedule, true);
    window.addEventListener('resize', schedule);
    findCorner();
    return () => {
      bodyChildren.disconnect();
      inCorner.disconnect();
      document.removeEventListener('transitionend', schedule, true);
      document.removeEventListener('animationend', schedule, true);
      window.removeEventListener('resize', schedule);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [base]);
  return room;
}
