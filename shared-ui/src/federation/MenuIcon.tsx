import AntdIcon from '@ant-design/icons/es/components/AntdIcon';
import type { ComponentProps } from 'react';
import type { NavigationIcon } from './manifest';

/** A remote's menu icon as navigation.json holds it (an SVG tree), drawn by the icon base every icon shares. */
export function MenuIcon({ icon }: { icon: NavigationIcon }) {
  // navigation.json is checked to hold an SVG tree (navigationProblems): the shape AntdIcon draws.
  return <AntdIcon icon={icon as ComponentProps<typeof AntdIcon>['icon']} />;
}
