// Avatar rule of spec accounts.md section 3: the picture when there is one, else a coloured
// initial (first letter of remark, then name, upper-cased; font 0.6 of the width), else grey blank.
// The System-level account (the activity administrator) always wears its own default picture.
import { ShieldIcon } from './icons';

const PALETTE = ['#4f7cff', '#22a06b', '#e2733a', '#8e5be8', '#d6457a', '#1f9bb5', '#c79a16', '#5f6b7a'];

export function initialOf(remark?: string, name?: string): string {
  const source = (remark?.trim() || name?.trim() || '').trim();
  return source ? Array.from(source)[0].toUpperCase() : '';
}

export function colourFor(seed: string): string {
  let hash = 0;
  for (const char of seed) hash = (hash * 31 + char.codePointAt(0)!) >>> 0;
  return PALETTE[hash % PALETTE.length];
}

interface AvatarProps {
  name?: string;
  remark?: string;
  headUrl?: string;
  /** stable colour seed, e.g. the member id */
  seed?: string;
  size?: number;
  icon?: React.ReactNode;
  tone?: string;
  /** 'System': the activity administrator's default avatar, whatever picture it has */
  levelCode?: string;
}

export function Avatar({ name, remark, headUrl, seed, size = 38, icon, tone, levelCode }: AvatarProps) {
  const style: React.CSSProperties = { width: size, height: size, fontSize: Math.round(size * 0.6) };
  if (levelCode === 'System') {
    return (
      <span className="avatar avatar-icon avatar-system" style={style} aria-hidden="true" data-avatar="system">
        <ShieldIcon />
      </span>
    );
  }
  if (headUrl) {
    return <img className="avatar" style={style} src={headUrl} alt="" aria-hidden="true" />;
  }
  if (icon) {
    return (
      <span className="avatar avatar-icon" style={{ ...style, background: tone }} aria-hidden="true">
        {icon}
      </span>
    );
  }
  const initial = initialOf(remark, name);
  const background = initial ? colourFor(seed || remark || name || '') : undefined;
  return (
    <span className={initial ? 'avatar' : 'avatar avatar-blank'} style={{ ...style, background }} aria-hidden="true">
      {initial}
    </span>
  );
}
