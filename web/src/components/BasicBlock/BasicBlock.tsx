import type { Icon } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import classes from './BasicBlock.module.css';

interface BasicBlockProps {
  /** Where the tile leads. */
  to: string;
  text: string;
  /** The department or a second line under the text. */
  dept?: string;
  icon: Icon;
  /** Tile background (any CSS background) and text colour. */
  background?: string;
  color?: string;
  'data-testid'?: string;
}

/** The basic block tile (spec §2): a link tile with text, department, icon, background and colour. */
export function BasicBlock({ to, text, dept, icon: Icon, background, color, ...rest }: BasicBlockProps) {
  return (
    <Link to={to} className={classes.root} style={{ background, color }} {...rest}>
      <span className={classes.icon}>
        <Icon size={26} stroke={1.6} />
      </span>
      <span className={classes.body}>
        <span className={classes.text}>{text}</span>
        {dept && <span className={classes.dept}>{dept}</span>}
      </span>
    </Link>
  );
}
