import { render, screen } from '@testing-library/react';
import { Note } from './Note';

describe('Note', () => {
  test('inline secondary text by default; a paragraph when asked, with the space below antd gives one', () => {
    render(
      <>
        <Note>Up to 9.54 MB</Note>
        <Note paragraph>Run the MoBatch scripts.</Note>
      </>,
    );
    const inline = screen.getByText('Up to 9.54 MB');
    const paragraph = screen.getByText('Run the MoBatch scripts.');
    expect(inline.tagName).toBe('SPAN');
    expect(paragraph.tagName).toBe('P');
    expect(paragraph).toHaveStyle({ marginBottom: '1em' });
    expect(inline).not.toHaveStyle({ marginBottom: '1em' });
  });

  test('errors are drawn in the theme’s error colour, hints in its description colour; a given style wins', () => {
    render(
      <>
        <Note>hint</Note>
        <Note tone="danger">At most 20 sites per run.</Note>
        <Note paragraph style={{ margin: 0 }}>
          intro
        </Note>
      </>,
    );
    const hint = getComputedStyle(screen.getByText('hint')).color;
    const danger = getComputedStyle(screen.getByText('At most 20 sites per run.')).color;
    expect(hint).not.toBe('');
    expect(danger).not.toBe(hint);
    expect(screen.getByText('intro')).toHaveStyle({ margin: '0px' });
  });
});
