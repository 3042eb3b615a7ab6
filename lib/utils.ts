// Small helpers shared by components.
import { type ClassValue, clsx } from 'clsx';

/**
 * Joins class names. Deliberately not tailwind-merge (it would ship in every page's JavaScript):
 * components never receive a class that conflicts with their own; a different size or colour
 * is a prop (`sizing`, `variant`) instead.
 */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
