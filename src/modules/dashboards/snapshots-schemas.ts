import { Type } from 'typebox';
import { RuntimeVariables } from '../data/index.js';
import { PICTURE_LIMITS } from './snapshots-service.js';

const Theme = Type.Enum(['light', 'dark'], { description: 'The report page theme to draw with (default light)' });
const FilterState = Type.Array(Type.Record(Type.String(), Type.Unknown()), {
  maxItems: 100,
  description: 'A runtime filter state, as `POST /project/{id}/filter` takes it (field, date and variable filters); the charts are computed for it, never saved',
});

/** Chartbrew's schedule dialog sends its whole schedule with the snapshot it previews: taken, not used here. */
const scheduleKey = (name: string) => Type.Optional(Type.Unknown({ description: `Chartbrew's schedule field \`${name}\`, accepted and ignored: a schedule is set with \`snapshotSchedule\` on \`PUT /project/{id}\`` }));

export const SnapshotRequest = Type.Object(
  {
    format: Type.Optional(Type.Enum(['png', 'pdf'], { description: 'png (one picture of the whole dashboard) or pdf (default png)' })),
    theme: Type.Optional(Theme),
    width: Type.Optional(
      Type.Integer({ minimum: PICTURE_LIMITS.width.min, maximum: PICTURE_LIMITS.width.max, description: `Viewport width in pixels (default ${PICTURE_LIMITS.width.dashboardDefault}); the layout's 12 columns fill it` }),
    ),
    viewport: Type.Optional(
      Type.Object(
        {
          width: Type.Optional(Type.Integer({ minimum: PICTURE_LIMITS.width.min, maximum: PICTURE_LIMITS.width.max })),
          height: Type.Optional(Type.Integer({ minimum: 1 })),
        },
        { description: "Chartbrew's body: `viewport.width` is the width when `width` is absent; the height follows the layout" },
      ),
    ),
    removeStyling: Type.Optional(Type.Boolean({ description: "Chartbrew's option, accepted and ignored: the picture is the report page's card look" })),
    removeHeader: Type.Optional(Type.Boolean({ description: "Chartbrew's option, accepted and ignored: the header holds the title, data time and filters" })),
    pages: Type.Optional(Type.Enum(['screens', 'single'], { description: 'PDF only: one page per screen of the layout (16:9 of the width, cut between rows of cards; default) or one long page' })),
    filters: Type.Optional(FilterState),
    variables: Type.Optional(RuntimeVariables),
    timezone: scheduleKey('timezone'),
    frequency: scheduleKey('frequency'),
    frequencyNumber: scheduleKey('frequencyNumber'),
    dayOfWeek: scheduleKey('dayOfWeek'),
    time: scheduleKey('time'),
    mediums: scheduleKey('mediums'),
    integrations: scheduleKey('integrations'),
    customEmails: scheduleKey('customEmails'),
  },
  { $id: 'SnapshotRequest', additionalProperties: false },
);

export const ChartImageQuery = Type.Object({
  format: Type.Optional(Type.Enum(['png', 'svg'], { description: 'png or svg (default png)' })),
  theme: Type.Optional(Theme),
  width: Type.Optional(Type.Integer({ minimum: PICTURE_LIMITS.width.min, maximum: PICTURE_LIMITS.width.max, description: `Pixels (default ${PICTURE_LIMITS.width.chartDefault})` })),
  height: Type.Optional(Type.Integer({ minimum: PICTURE_LIMITS.height.min, maximum: PICTURE_LIMITS.height.max, description: `Pixels (default ${PICTURE_LIMITS.height.chartDefault})` })),
});

/** The answer to a snapshot asked for as JSON (`Accept: application/json`, as Chartbrew's client asks). */
export const SnapshotLink = Type.Object(
  {
    snapshot_path: Type.String({ description: 'The picture\'s path below the API\'s address (`image/<token>`), as Chartbrew answers it: `<API host>/<snapshot_path>` serves the picture' }),
    url: Type.String({ description: 'The same signed link, absolute (`BASE_URL/image/<token>`)' }),
    expiresAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'SnapshotLink' },
);

export const SNAPSHOT_COMPONENTS = [SnapshotRequest, SnapshotLink];
