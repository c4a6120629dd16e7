import { Type, type Static } from 'typebox';
import { RoleSchema, Timestamp } from '../../platform/http-schemas.js';

export const SignupBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  email: Type.String({ minLength: 3, maxLength: 320 }),
  password: Type.String({ minLength: 8, maxLength: 1024 }),
}, { $id: 'SignUp' });

export const LoginBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 320 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
}, { $id: 'LogIn' });

/** The user who signed up or logged in, with a session token. */
export const UserWithToken = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
  token: Type.Optional(Type.String({ description: 'Session bearer token (30 days); shown only here. Absent with `?session=cookie`, where it goes into an HttpOnly cookie instead' })),
}, { $id: 'User' });

export const SessionQuery = Type.Object({
  session: Type.Optional(
    Type.Literal('cookie', {
      description: "Browser mode: the session token is set as an HttpOnly SameSite=Strict cookie (Secure over https) and left out of the body; the request's Origin must be this server's",
    }),
  ),
});

const MeKey = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  type: Type.Enum(['team', 'personal']),
  team_id: Type.Union([Type.Integer(), Type.Null()], { description: 'The team of a team key; null for a personal key' }),
  role: Type.Union([RoleSchema, Type.Null()], { description: "A team key's effective role, or a personal key's ceiling (null: none)" }),
  projects: Type.Array(Type.Integer()),
});

export const Me = Type.Object(
  {
    id: Type.Integer({ description: "The user's id; for a team API key, the key's id" }),
    name: Type.String(),
    email: Type.Optional(Type.String({ description: 'Absent for a team API key, which is not its creator' })),
    createdAt: Timestamp,
    apiKey: Type.Optional(MeKey),
  },
  { $id: 'Me', description: 'The caller: a signed-in user, a user through a personal API key, or a team API key' },
);
export type Me = Static<typeof Me>;

export const LoggedOut = Type.Object({ loggedOut: Type.Boolean() }, { $id: 'LoggedOut' });

export const AnyUsers = Type.Object({ areThereAnyUsers: Type.Boolean() }, { $id: 'AnyUsers' });

/** Published under `components.schemas` (src/openapi-components.ts). */
export const USER_COMPONENTS = [SignupBody, LoginBody, UserWithToken, Me, LoggedOut, AnyUsers];
