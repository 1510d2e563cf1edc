// Stroke icons of calls, drawn like the others of components/icons.
import { Icon } from '../components/icons';

export const PhoneIcon = ({ size }: { size?: number }) => (
  <Icon size={size}>
    <path d="M22 16.9v3a2 2 0 0 1-2.2 2 19.8 19.8 0 0 1-8.6-3.1 19.5 19.5 0 0 1-6-6A19.8 19.8 0 0 1 2.1 4.2 2 2 0 0 1 4.1 2h3a2 2 0 0 1 2 1.7c.1.9.4 1.8.7 2.7a2 2 0 0 1-.5 2.1L8 9.8a16 16 0 0 0 6 6l1.3-1.3a2 2 0 0 1 2.1-.4c.9.3 1.8.6 2.7.7a2 2 0 0 1 1.7 2z" />
  </Icon>
);

export const VideoIcon = ({ size }: { size?: number }) => (
  <Icon size={size}>
    <path d="M23 7l-7 5 7 5V7z" />
    <rect x="1" y="5" width="15" height="14" rx="2" />
  </Icon>
);

export const HangUpIcon = ({ size }: { size?: number }) => (
  <Icon size={size}>
    <path d="M3 15.5c5-4.7 13-4.7 18 0l-2.2 2.3-3.3-1.5v-2.4a12 12 0 0 0-7 0v2.4l-3.3 1.5z" />
  </Icon>
);

export const MinimiseIcon = () => (
  <Icon>
    <path d="M4 14h6v6M20 10h-6V4M14 10l7-7M3 21l7-7" />
  </Icon>
);
