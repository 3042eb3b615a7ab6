// Button and link-styled-as-button, in the shadcn style: variants as class maps (button-classes.ts).

import type { ComponentProps } from 'react';
import { Link } from '@/components/ui/link';
import { buttonClasses, type ButtonSize as Size, type ButtonVariant as Variant } from './button-classes';

export { buttonClasses };

export function Button({
  variant,
  size,
  className,
  type = 'button',
  ...props
}: ComponentProps<'button'> & { variant?: Variant; size?: Size }) {
  return <button type={type} className={buttonClasses(variant, size, className)} {...props} />;
}

export function ButtonLink({ variant, size, className, ...props }: ComponentProps<typeof Link> & { variant?: Variant; size?: Size }) {
  return <Link className={buttonClasses(variant, size, className)} {...props} />;
}
