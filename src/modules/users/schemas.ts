import { Type } from 'typebox';
import { Timestamp } from '../../platform/http-schemas.js';

export const SignupBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  email: Type.String({ minLength: 3, maxLength: 320 }),
  password: Type.String({ minLength: 8, maxLength: 1024 }),
});

export const LoginBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 320 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});

export const UserWithToken = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
  token: Type.String({ description: 'Session bearer token (30 days); shown only here' }),
});

export const Me = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
  createdAt: Timestamp,
});

export const LoggedOut = Type.Object({ loggedOut: Type.Boolean() });
