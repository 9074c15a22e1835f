import { Suspense, createElement, forwardRef, lazy, type ComponentType } from 'react';

type AnyProps = Record<string, unknown>;

/**
 * A component that loads its implementation the first time it is drawn, inside a Suspense boundary of
 * its own, so a late load never blanks the page around it.
 */
export function onDemand(load: () => Promise<{ default: unknown }>) {
  const Implementation = lazy(load as () => Promise<{ default: ComponentType<AnyProps> }>);
  return forwardRef<unknown, AnyProps>(function OnDemand(props, ref) {
    return createElement(Suspense, { fallback: null }, createElement(Implementation, { ...props, ref }));
  });
}
