import { randomBytes } from 'node:crypto';

/*
 * Checks that a JSON schema cannot express readably: colours, IANA zones, link schemes, slugs.
 * Each returns a boolean; the service turns a false into a 400 naming the field.
 */

/** The CSS named colours (CSS Color Module Level 4) plus `transparent`. */
const NAMED_COLOURS = new Set(
  (
    'aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown burlywood ' +
    'cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan darkgoldenrod darkgray ' +
    'darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen ' +
    'darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue dimgray dimgrey dodgerblue ' +
    'firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray green greenyellow grey honeydew ' +
    'hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan ' +
    'lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray ' +
    'lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine mediumblue ' +
    'mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen mediumturquoise mediumvioletred ' +
    'midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid ' +
    'palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum powderblue purple ' +
    'rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue ' +
    'slateblue slategray slategrey snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white ' +
    'whitesmoke yellow yellowgreen transparent'
  ).split(' '),
);

const HEX_COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const NUMBER = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

function channel(token: string, percent: boolean): boolean {
  const raw = percent ? token.slice(0, -1) : token;
  if (!NUMBER.test(raw)) return false;
  return Number(raw) <= (percent ? 100 : 255);
}

function alpha(token: string): boolean {
  if (token.endsWith('%')) return NUMBER.test(token.slice(0, -1)) && Number(token.slice(0, -1)) <= 100;
  return NUMBER.test(token) && Number(token) <= 1;
}

/** `rgb()` / `rgba()` in the comma form or the space form with `/ alpha`. */
function isRgbFunction(value: string): boolean {
  const match = /^rgba?\((.*)\)$/i.exec(value);
  if (!match) return false;
  const inner = match[1]!.trim();
  let channels: string[];
  let alphaToken: string | undefined;
  if (inner.includes(',')) {
    const parts = inner.split(',').map((p) => p.trim());
    if (parts.length !== 3 && parts.length !== 4) return false;
    channels = parts.slice(0, 3);
    alphaToken = parts[3];
  } else {
    const [colour, rest, ...extra] = inner.split('/');
    if (extra.length > 0 || colour === undefined) return false;
    channels = colour.trim().split(/\s+/);
    if (rest !== undefined) {
      alphaToken = rest.trim();
      if (alphaToken === '') return false;
    }
  }
  if (channels.length !== 3) return false;
  // CSS forbids mixing numbers and percentages among the three channels.
  const percent = channels.every((c) => c.endsWith('%'));
  if (!percent && channels.some((c) => c.endsWith('%'))) return false;
  if (!channels.every((c) => channel(c, percent))) return false;
  return alphaToken === undefined || alpha(alphaToken);
}

/** #rgb, #rgba, #rrggbb, #rrggbbaa, rgb()/rgba(), or a CSS named colour (case-insensitive). */
export function isColour(value: string): boolean {
  const v = value.trim();
  return HEX_COLOUR.test(v) || NAMED_COLOURS.has(v.toLowerCase()) || isRgbFunction(v);
}

// Offsets such as "+01:00" are accepted by newer Intl versions but are not IANA zone names.
const ZONE_SHAPE = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

/** A zone name Intl knows (IANA names and their aliases, e.g. `Europe/Paris`, `UTC`). */
export function isIanaZone(value: string): boolean {
  if (!ZONE_SHAPE.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** An absolute http(s) URL: anything else (javascript:, data:) would be a script vector on public pages. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** A logo is an http(s) URL or a relative path to an uploaded file; no other scheme. */
export function isLogoReference(value: string): boolean {
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) return isHttpUrl(value);
  return !value.startsWith('//');
}

const SLUG_MAX = 60;

/** "Sales Q3 — EMEA!" -> "sales-q3-emea"; diacritics dropped; "dashboard" when nothing is left. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
  return slug === '' ? 'dashboard' : slug;
}

/**
 * The fixed segments of `/project/<segment>/…` routes. A dashboard with one of them as its
 * brewName could not be reached at `/project/{brewName}/report` (Chartbrew's web app): the fixed
 * route takes the request first (`/project/dashboard/report` is the report of "report"). Such a
 * slug is treated as taken. test/http/shared-report.test.ts holds this list to the routes.
 */
export const RESERVED_BREW_NAMES: ReadonlySet<string> = new Set(['dashboard', 'team']);

/** A slug with a short random suffix, used when the plain slug is taken. */
export function slugWithSuffix(slug: string): string {
  return `${slug}-${randomBytes(3).toString('hex')}`;
}
