import { randomBytes } from 'node:crypto';

/**
 * The image captcha as SVG. The digits are never text: each is drawn from a small built-in stroke
 * font (polylines on a 10 x 16 grid, smoothed into curves) with its points jittered and the glyph
 * scaled, rotated, sheared and moved at random, over noise curves in similar colours and dots.
 * Someone reading the SVG source sees only coordinates. It is a speed bump against scripts, not
 * a defence against a determined solver, which is also true of the original's image.
 */

type Point = readonly [number, number];

/**
 * One or more strokes per digit, on a grid 10 wide and 16 high (y down). Strokes are smoothed
 * through midpoints, so a point given twice is a sharp corner.
 */
const GLYPHS: readonly (readonly Point[])[][] = [
  [
    [
      [5, 0],
      [8.5, 1.5],
      [10, 5],
      [10, 11],
      [8.5, 14.5],
      [5, 16],
      [1.5, 14.5],
      [0, 11],
      [0, 5],
      [1.5, 1.5],
      [5, 0],
    ],
  ],
  // A foot on the 1 keeps it apart from a tilted 7.
  [
    [
      [2.5, 3],
      [6, 0],
      [6, 0],
      [6, 16],
    ],
    [
      [2.5, 16],
      [9.5, 16],
    ],
  ],
  [
    [
      [0.5, 4],
      [2, 1],
      [5, 0],
      [8, 1],
      [9.5, 4],
      [8.5, 7],
      [0, 16],
      [10, 16],
    ],
  ],
  [
    [
      [0.5, 2],
      [3, 0],
      [7, 0],
      [9, 2],
      [9, 5.5],
      [6.5, 7.5],
      [3.5, 7.5],
    ],
    [
      [6.5, 7.5],
      [9.5, 10],
      [9.5, 13.5],
      [7, 16],
      [3, 16],
      [0.5, 14],
    ],
  ],
  [
    [
      [7.5, 16],
      [7.5, 0],
      [7.5, 0],
      [0, 11],
      [0, 11],
      [10, 11],
    ],
  ],
  [
    [
      [9.5, 0],
      [1.5, 0],
      [0.5, 7],
      [4, 6],
      [7.5, 6.5],
      [9.5, 9.5],
      [9.5, 13],
      [7, 16],
      [3, 16],
      [0.5, 14],
    ],
  ],
  [
    [
      [8.5, 1],
      [5.5, 0],
      [2.5, 1],
      [0.5, 5],
      [0, 10],
      [0.5, 14],
      [3, 16],
      [7, 16],
      [9.5, 13.5],
      [9.5, 10],
      [7, 7.5],
      [3.5, 7.5],
      [0.5, 10],
    ],
  ],
  [
    [
      [0, 1],
      [0, 0],
      [10, 0],
      [10, 0],
      [4, 16],
    ],
  ],
  [
    [
      [5, 7.5],
      [1.5, 6],
      [1, 3],
      [3, 0.5],
      [7, 0.5],
      [9, 3],
      [8.5, 6],
      [5, 7.5],
      [1, 10],
      [0.5, 13],
      [3, 16],
      [7, 16],
      [9.5, 13],
      [9, 10],
      [5, 7.5],
    ],
  ],
  [
    [
      [9.5, 6],
      [7, 8.5],
      [3, 8.5],
      [0.5, 6],
      [0.5, 2.5],
      [3, 0],
      [7, 0],
      [9.5, 2.5],
      [9.5, 6],
      [9, 11],
      [7, 15],
      [4.5, 16],
      [1.5, 15],
    ],
  ],
];

const SLOT_WIDTH = 30;
const HEIGHT = 44;

/** Uniform numbers from one batch of CSPRNG bytes, refilled as needed. */
function randomSource(): (min: number, max: number) => number {
  let pool = randomBytes(1024);
  let index = 0;
  return (min, max) => {
    if (index + 4 > pool.length) {
      pool = randomBytes(1024);
      index = 0;
    }
    const u = pool.readUInt32BE(index) / 2 ** 32;
    index += 4;
    return min + u * (max - min);
  };
}

const fmt = (n: number): string => (Math.round(n * 10) / 10).toString();

function hsl(h: number, s: number, l: number): string {
  return `hsl(${Math.round(h)},${Math.round(s)}%,${Math.round(l)}%)`;
}

/** A smooth path through the points: quadratic curves via the midpoints, straight at the ends. */
function smoothPath(points: Point[]): string {
  const [first] = points;
  if (!first) return '';
  let d = `M${fmt(first[0])} ${fmt(first[1])}`;
  for (let i = 1; i < points.length - 1; i++) {
    const p = points[i]!;
    const q = points[i + 1]!;
    d += `Q${fmt(p[0])} ${fmt(p[1])} ${fmt((p[0] + q[0]) / 2)} ${fmt((p[1] + q[1]) / 2)}`;
  }
  const last = points[points.length - 1]!;
  return `${d}L${fmt(last[0])} ${fmt(last[1])}`;
}

/**
 * Renders the code (digits only, 1 to 8 of them; the service uses 4) as a standalone SVG of
 * 30 px per digit by 44 px. Every call differs, even for the same code.
 */
export function renderCaptchaSvg(code: string): string {
  if (!/^\d{1,8}$/.test(code)) throw new TypeError('A captcha code is 1 to 8 digits');
  const rnd = randomSource();
  const width = SLOT_WIDTH * code.length;
  const hue = rnd(0, 360);
  const parts: string[] = [];
  // Light background, dark ink: the digits keep a strong contrast whatever hues are drawn.
  parts.push(`<rect width="100%" height="100%" fill="${hsl(hue, rnd(20, 50), rnd(92, 97))}"/>`);

  const curve = (stroke: string, strokeWidth: number): string => {
    const y = (): string => fmt(rnd(4, HEIGHT - 4));
    return (
      `<path d="M${fmt(rnd(-5, width * 0.2))} ${y()}C${fmt(rnd(0, width))} ${y()} ${fmt(rnd(0, width))} ${y()} ` +
      `${fmt(rnd(width * 0.8, width + 5))} ${y()}" stroke="${stroke}" stroke-width="${fmt(strokeWidth)}" fill="none"/>`
    );
  };
  for (let i = 0; i < 3; i++) parts.push(curve(hsl(rnd(0, 360), rnd(30, 70), rnd(55, 75)), rnd(1, 2.5)));

  for (let i = 0; i < code.length; i++) {
    const glyph = GLYPHS[Number(code[i])]!;
    const scale = rnd(1.45, 1.8);
    const angle = (rnd(-18, 18) * Math.PI) / 180;
    const shear = rnd(-0.25, 0.25);
    const cx = SLOT_WIDTH * (i + 0.5) + rnd(-3, 3);
    const cy = HEIGHT / 2 + rnd(-3, 3);
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    // The transform is applied here, not as an attribute, so the SVG carries no tidy glyph coordinates.
    const place = ([gx, gy]: Point): Point => {
      const x = (gx - 5 + rnd(-0.45, 0.45) + shear * (gy - 8)) * scale;
      const y = (gy - 8 + rnd(-0.45, 0.45)) * scale;
      return [cx + x * cos - y * sin, cy + x * sin + y * cos];
    };
    const d = glyph.map((stroke) => smoothPath(stroke.map(place))).join('');
    const ink = hsl(rnd(0, 360), rnd(50, 90), rnd(18, 34));
    parts.push(
      `<path d="${d}" stroke="${ink}" stroke-width="${fmt(rnd(2, 2.8))}" fill="none" stroke-linecap="round" stroke-linejoin="round"/>`,
    );
  }

  // One thin curve over the digits in ink colours, so strokes cannot be told apart by colour alone.
  parts.push(curve(hsl(rnd(0, 360), rnd(50, 90), rnd(25, 40)), rnd(0.8, 1.3)));
  for (let i = 0; i < 8 * code.length; i++) {
    const fill = hsl(rnd(0, 360), rnd(30, 80), rnd(30, 70));
    parts.push(
      `<circle cx="${fmt(rnd(0, width))}" cy="${fmt(rnd(0, HEIGHT))}" r="${fmt(rnd(0.5, 1.6))}" fill="${fill}"/>`,
    );
  }

  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${HEIGHT}" viewBox="0 0 ${width} ${HEIGHT}">` +
    `${parts.join('')}</svg>`
  );
}

/** The image as the original answers it: `data:image/svg+xml;base64,...`. */
export function captchaDataUri(code: string): string {
  return `data:image/svg+xml;base64,${Buffer.from(renderCaptchaSvg(code), 'utf8').toString('base64')}`;
}
