import { render, screen } from '@testing-library/react';
import { createRef, forwardRef } from 'react';
import { LOADED } from '../testing/onDemandHooks';
import { onDemand } from './onDemand';

const Greeting = forwardRef<HTMLSpanElement, { name: string }>(function Greeting({ name }, ref) {
  return <span ref={ref}>Hello {name}</span>;
});

test('draws the loaded component with its props and ref, leaving its siblings drawn while it loads', async () => {
  let finishLoading: (module: { default: unknown }) => void = () => undefined;
  const load = jest.fn(() => new Promise<{ default: unknown }>((resolve) => (finishLoading = resolve)));
  const OnDemandGreeting = onDemand(load);
  const ref = createRef<unknown>();

  render(
    <div>
      <p>Sibling</p>
      <OnDemandGreeting name="Ada" ref={ref} />
    </div>,
  );
  expect(load).toHaveBeenCalledTimes(1);
  expect(screen.getByText('Sibling')).toBeInTheDocument();
  expect(screen.queryByText('Hello Ada')).not.toBeInTheDocument();

  finishLoading({ default: Greeting });
  expect(await screen.findByText('Hello Ada', {}, LOADED)).toBeInTheDocument();
  expect(ref.current).toBe(screen.getByText('Hello Ada'));
});

test('loads nothing until first drawn', () => {
  const load = jest.fn(() => new Promise<{ default: unknown }>(() => undefined));
  onDemand(load);
  expect(load).not.toHaveBeenCalled();
});
