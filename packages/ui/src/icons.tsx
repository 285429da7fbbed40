import type { SVGProps } from "react";

/** Stroke icons on a 16px grid; decorative, so hidden from assistive technology. */
function Icon({ children, ...props }: SVGProps<SVGSVGElement>) {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
}

export const Spinner = () => (
  <Icon className="ui-spinner">
    <path d="M8 1.75a6.25 6.25 0 1 0 6.25 6.25" />
  </Icon>
);
export const CopyIcon = () => (
  <Icon>
    <rect x="5.25" y="5.25" width="8" height="8" rx="1.5" />
    <path d="M10.75 5.25V3.5a1.25 1.25 0 0 0-1.25-1.25h-6A1.25 1.25 0 0 0 2.25 3.5v6a1.25 1.25 0 0 0 1.25 1.25h1.75" />
  </Icon>
);
export const CheckIcon = () => (
  <Icon>
    <path d="m3 8.5 3.25 3.25L13 5" />
  </Icon>
);
export const AlertIcon = () => (
  <Icon>
    <path d="M8 1.75 1.25 13.5h13.5L8 1.75Z" />
    <path d="M8 6.25v3.25M8 11.6v.15" />
  </Icon>
);
export const InfoIcon = () => (
  <Icon>
    <circle cx="8" cy="8" r="6.25" />
    <path d="M8 7.25v4M8 4.9v.15" />
  </Icon>
);
export const CloseIcon = () => (
  <Icon>
    <path d="m3.75 3.75 8.5 8.5m0-8.5-8.5 8.5" />
  </Icon>
);
export const MenuIcon = () => (
  <Icon>
    <path d="M2.75 4.25h10.5M2.75 8h10.5m-10.5 3.75h10.5" />
  </Icon>
);
export const PlusIcon = () => (
  <Icon>
    <path d="M8 3v10M3 8h10" />
  </Icon>
);
export const KeyIcon = () => (
  <Icon>
    <circle cx="5.25" cy="10.75" r="3" />
    <path d="m7.4 8.6 5.85-5.85M11 5l1.75 1.75M9.5 6.5l1.25 1.25" />
  </Icon>
);
export const ShieldIcon = () => (
  <Icon>
    <path d="M8 1.75 2.75 3.75v4c0 3.1 2.2 5.4 5.25 6.5 3.05-1.1 5.25-3.4 5.25-6.5v-4L8 1.75Z" />
    <path d="m5.75 8 1.5 1.5 3-3" />
  </Icon>
);
/** A pulse line: what the fleets are doing now. */
export const PulseIcon = () => (
  <Icon>
    <path d="M1.75 8h2.5l1.75-4.5 3.5 9 1.75-4.5h2.5" />
  </Icon>
);
/** A page with a clock: the audit log's record of who did what, when. */
export const HistoryIcon = () => (
  <Icon>
    <path d="M9.25 13.75H3.75a1 1 0 0 1-1-1V3.25a1 1 0 0 1 1-1h7.5a1 1 0 0 1 1 1v3" />
    <path d="M5.25 5.25h4.5M5.25 8h2.5" />
    <circle cx="11.25" cy="11.25" r="2.75" />
    <path d="M11.25 10v1.35l.9.65" />
  </Icon>
);
export const ServerIcon = () => (
  <Icon>
    <rect x="2.25" y="2.25" width="11.5" height="4.5" rx="1.25" />
    <rect x="2.25" y="9.25" width="11.5" height="4.5" rx="1.25" />
    <path d="M5 4.5h.01M5 11.5h.01" />
  </Icon>
);
export const GridIcon = () => (
  <Icon>
    <rect x="2.25" y="2.25" width="4.5" height="4.5" rx="1" />
    <rect x="9.25" y="2.25" width="4.5" height="4.5" rx="1" />
    <rect x="2.25" y="9.25" width="4.5" height="4.5" rx="1" />
    <rect x="9.25" y="9.25" width="4.5" height="4.5" rx="1" />
  </Icon>
);
export const PlugIcon = () => (
  <Icon>
    <path d="M5.5 1.75v3M10.5 1.75v3M3.75 4.75h8.5v2.5a4.25 4.25 0 0 1-8.5 0v-2.5ZM8 11.5v2.75" />
  </Icon>
);
export const ArrowIcon = ({ direction }: { direction: "up" | "down" | "right" | "left" }) => {
  const rotation = { up: 180, down: 0, right: -90, left: 90 }[direction];
  return (
    <Icon style={{ transform: `rotate(${rotation}deg)` }}>
      <path d="M8 3v10m-4-4 4 4 4-4" />
    </Icon>
  );
};
export const SignOutIcon = () => (
  <Icon>
    <path d="M6 2.25H3.5a1.25 1.25 0 0 0-1.25 1.25v9a1.25 1.25 0 0 0 1.25 1.25H6M10.5 11.25 13.75 8 10.5 4.75M13.5 8H6" />
  </Icon>
);
export const LockIcon = () => (
  <Icon>
    <rect x="2.75" y="7.25" width="10.5" height="6.5" rx="1.5" />
    <path d="M5.25 7.25V5a2.75 2.75 0 0 1 5.5 0v2.25M8 10v1.25" />
  </Icon>
);
export const EyeIcon = () => (
  <Icon>
    <path d="M1.75 8S4 3.75 8 3.75 14.25 8 14.25 8 12 12.25 8 12.25 1.75 8 1.75 8Z" />
    <circle cx="8" cy="8" r="2" />
  </Icon>
);
export const EyeOffIcon = () => (
  <Icon>
    <path d="M6.6 4a6.3 6.3 0 0 1 1.4-.25c4 0 6.25 4.25 6.25 4.25a11 11 0 0 1-1.6 2.15M4.2 5.2A10.6 10.6 0 0 0 1.75 8S4 12.25 8 12.25a6 6 0 0 0 3.1-.85" />
    <path d="M6.6 6.6a2 2 0 0 0 2.8 2.8M2.25 2.25l11.5 11.5" />
  </Icon>
);
export const TrashIcon = () => (
  <Icon>
    <path d="M2.75 4.25h10.5M6.25 4.25V2.75h3.5v1.5M4 4.25l.6 8.6a1 1 0 0 0 1 .9h4.8a1 1 0 0 0 1-.9l.6-8.6M6.75 6.75v4.5M9.25 6.75v4.5" />
  </Icon>
);
export const ChevronIcon = () => (
  <Icon>
    <path d="m4.5 6.25 3.5 3.5 3.5-3.5" />
  </Icon>
);
export const BookIcon = () => (
  <Icon>
    <path d="M2.75 3.25A1.5 1.5 0 0 1 4.25 1.75h8.5v10.5h-8.5a1.5 1.5 0 0 0-1.5 1.5V3.25Z" />
    <path d="M2.75 13.75a1.5 1.5 0 0 0 1.5 1.5h8.5v-3M5.5 4.75h4.5" />
  </Icon>
);
export const MoreIcon = () => (
  <Icon>
    <path d="M3.5 8h.01M8 8h.01M12.5 8h.01" strokeWidth="2.25" />
  </Icon>
);
export const PauseIcon = () => (
  <Icon>
    <path d="M5.75 3.25v9.5M10.25 3.25v9.5" />
  </Icon>
);
export const PlayIcon = () => (
  <Icon>
    <path d="M4.75 2.75v10.5L13 8 4.75 2.75Z" />
  </Icon>
);
export const StopIcon = () => (
  <Icon>
    <rect x="3.25" y="3.25" width="9.5" height="9.5" rx="1.5" />
  </Icon>
);
export const SendIcon = () => (
  <Icon>
    <path d="M14.25 1.75 7 9M14.25 1.75 9.75 14.25 7 9 1.75 6.25l12.5-4.5Z" />
  </Icon>
);
export const SearchIcon = () => (
  <Icon>
    <circle cx="7" cy="7" r="4.25" />
    <path d="m10.25 10.25 3.5 3.5" />
  </Icon>
);
export const UploadIcon = () => (
  <Icon>
    <path d="M8 10.5V2.25M4.75 5.5 8 2.25l3.25 3.25M2.75 10.5v2a1.25 1.25 0 0 0 1.25 1.25h8a1.25 1.25 0 0 0 1.25-1.25v-2" />
  </Icon>
);
export const PeopleIcon = () => (
  <Icon>
    <circle cx="6" cy="5.5" r="2.25" />
    <path d="M2 13.25c0-2.2 1.8-3.75 4-3.75s4 1.55 4 3.75" />
    <path d="M10.5 3.4a2.25 2.25 0 0 1 0 4.2M12 9.75c1.2.5 2 1.7 2 3.5" />
  </Icon>
);

/** Bars on an axis: billing's spend per day. */
export const ChartIcon = () => (
  <Icon>
    <path d="M2.25 2.25v11.5h11.5" />
    <path d="M5.25 11V8.5M8 11V5.5M10.75 11V7.25" />
  </Icon>
);
export const HomeIcon = () => (
  <Icon>
    <path d="M2.25 7.25 8 2.25l5.75 5" />
    <path d="M3.75 6.25v7.5h3v-4h2.5v4h3v-7.5" />
  </Icon>
);
