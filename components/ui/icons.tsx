// The dashboard's icons: Lucide's shapes, drawn by a plain component. lucide-react's own icons are
// client components (its Icon module says 'use client'), so in a server component each one is a
// client reference: its shape is serialized into the page's RSC payload and the browser hydrates
// it as a component. The register renders a few hundred icons, and the phone-speed Lighthouse
// audit counted that work as blocking time. These have no hooks and no 'use client': a server
// component renders them to SVG on the server, and a client component calls them as a cheap
// function. The shapes are read from lucide-react's per-icon modules (their `__iconData`), so the
// drawings stay Lucide's and update with the package. Each icon is a function of its own, with
// nothing run when this module loads, so a client bundle keeps only the icons its components use.
// Files marked 'use client' import lucide-react directly: they are hydrated anyway, and this
// module in their bundles cost the detail page ~1.7 KB of first-load JS (measured by the bench).

import * as arrowRight from 'lucide-react/icons/arrow-right';
import * as ban from 'lucide-react/icons/ban';
import * as check from 'lucide-react/icons/check';
import * as circleCheck from 'lucide-react/icons/circle-check';
import * as circleDashed from 'lucide-react/icons/circle-dashed';
import * as circleExclamationPoint from 'lucide-react/icons/circle-exclamation-point';
import * as circleUser from 'lucide-react/icons/circle-user';
import * as circleX from 'lucide-react/icons/circle-x';
import * as clock3 from 'lucide-react/icons/clock-3';
import * as cloudOff from 'lucide-react/icons/cloud-off';
import * as copy from 'lucide-react/icons/copy';
import * as databaseZap from 'lucide-react/icons/database-zap';
import * as download from 'lucide-react/icons/download';
import * as fileQuestionMark from 'lucide-react/icons/file-question-mark';
import * as flaskConical from 'lucide-react/icons/flask-conical';
import * as hourglass from 'lucide-react/icons/hourglass';
import * as info from 'lucide-react/icons/info';
import * as keyRound from 'lucide-react/icons/key-round';
import * as link2 from 'lucide-react/icons/link-2';
import * as loaderCircle from 'lucide-react/icons/loader-circle';
import * as logIn from 'lucide-react/icons/log-in';
import * as logOut from 'lucide-react/icons/log-out';
import * as mail from 'lucide-react/icons/mail';
import * as messageSquare from 'lucide-react/icons/message-square';
import * as monitorSmartphone from 'lucide-react/icons/monitor-smartphone';
import * as plus from 'lucide-react/icons/plus';
import * as refreshCw from 'lucide-react/icons/refresh-cw';
import * as rotateCcw from 'lucide-react/icons/rotate-ccw';
import * as search from 'lucide-react/icons/search';
import * as shieldCheck from 'lucide-react/icons/shield-check';
import * as shieldExclamationPoint from 'lucide-react/icons/shield-exclamation-point';
import * as triangleExclamationPoint from 'lucide-react/icons/triangle-exclamation-point';
import * as userCheck from 'lucide-react/icons/user-check';
import { createElement, type ReactElement, type SVGProps } from 'react';
import { cn } from '@/lib/utils';

/** One icon's drawing as lucide-react ships it: SVG elements with their attributes (and a React key). */
type IconShape = { name: string; node: [tag: string, attributes: Record<string, string>][] };

export type IconProps = Omit<SVGProps<SVGSVGElement>, 'ref' | 'children'>;
export type Icon = (props: IconProps) => ReactElement;

/** The shape a lucide-react icon module exports beside its component (not in its type declarations). */
export function iconShape(module: object): IconShape {
  const shape = (module as { __iconData?: IconShape }).__iconData;
  if (!shape?.node?.length) throw new Error('lucide-react icon module without __iconData: check the icons after upgrading lucide-react');
  return shape;
}

/** The SVG element lucide-react draws, with one icon's shapes inside. */
function LucideSvg({ shape, className, ...props }: IconProps & { shape: IconShape }) {
  // Decorative unless the caller names it, as lucide-react does.
  const named = props['aria-label'] !== undefined || props['aria-labelledby'] !== undefined || props.role !== undefined;
  return (
    // biome-ignore lint/a11y/noSvgWithoutTitle: hidden from assistive technology unless the caller names it (aria-label, role).
    <svg
      width={24}
      height={24}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden={named ? undefined : true}
      className={cn('lucide', `lucide-${shape.name}`, className)}
      {...props}
    >
      {shape.node.map(([tag, attributes]) => createElement(tag, attributes))}
    </svg>
  );
}

export function ArrowRight(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(arrowRight) });
}
export function Ban(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(ban) });
}
export function Check(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(check) });
}
export function CircleAlert(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(circleExclamationPoint) });
}
export function CircleCheck(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(circleCheck) });
}
export function CircleDashed(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(circleDashed) });
}
export function CircleUser(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(circleUser) });
}
export function CircleX(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(circleX) });
}
export function Clock3(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(clock3) });
}
export function CloudOff(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(cloudOff) });
}
export function Copy(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(copy) });
}
export function DatabaseZap(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(databaseZap) });
}
export function Download(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(download) });
}
export function FileQuestion(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(fileQuestionMark) });
}
export function FlaskConical(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(flaskConical) });
}
export function Hourglass(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(hourglass) });
}
export function Info(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(info) });
}
export function KeyRound(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(keyRound) });
}
export function Link2(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(link2) });
}
export function Loader2(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(loaderCircle) });
}
export function LogIn(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(logIn) });
}
export function LogOut(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(logOut) });
}
export function Mail(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(mail) });
}
export function MessageSquare(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(messageSquare) });
}
export function MonitorSmartphone(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(monitorSmartphone) });
}
export function Plus(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(plus) });
}
export function RefreshCw(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(refreshCw) });
}
export function RotateCcw(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(rotateCcw) });
}
export function Search(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(search) });
}
export function ShieldAlert(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(shieldExclamationPoint) });
}
export function ShieldCheck(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(shieldCheck) });
}
export function TriangleAlert(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(triangleExclamationPoint) });
}
export function UserCheck(props: IconProps) {
  return LucideSvg({ ...props, shape: iconShape(userCheck) });
}
