import { render, screen, within } from '@testing-library/react';
import { Button } from 'antd';
import { ConsoleProviders } from './ConsoleProviders';
import { Heading } from './Heading';
import { Panel } from './Panel';

describe('Panel and Heading (Card and Typography.Title looks without their weight)', () => {
  test('a panel is a region named by its label, with its title, body and one list item per action', () => {
    render(
      <ConsoleProviders>
        <Panel label="NOS" title="Operator" actions={[<Button key="d">Details</Button>, <Button key="x">Delete</Button>]}>
          <p>Users 3</p>
        </Panel>
        <Panel label="Empty">nothing</Panel>
      </ConsoleProviders>,
    );
    const panel = screen.getByRole('region', { name: 'NOS' });
    expect(within(panel).getByText('Operator')).toBeInTheDocument();
    expect(within(panel).getByText('Users 3')).toBeInTheDocument();
    expect(
      within(panel)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Details', 'Delete']);
    const empty = screen.getByRole('region', { name: 'Empty' });
    expect(within(empty).queryByRole('list')).toBeNull();
  });

  test("a heading has its level and the theme's heading size", () => {
    render(
      <ConsoleProviders>
        <Heading level={3}>Operators</Heading>
        <Heading level={5}>NOS</Heading>
      </ConsoleProviders>,
    );
    const title = screen.getByRole('heading', { level: 3, name: 'Operators' });
    expect(title.style.fontSize).toBe('24px');
    expect(title.style.margin).toBe('0px');
    expect(screen.getByRole('heading', { level: 5, name: 'NOS' }).style.fontSize).toBe('16px');
  });
});
