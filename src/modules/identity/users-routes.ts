import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf } from '../../platform/auth.js';
import { Ref } from '../../platform/http-schemas.js';
import type { BrowserSessions } from '../../platform/session-cookie.js';
import { AnyUsers, LoginBody, LoggedOut, Me, SessionQuery, SignupBody, UserWithToken } from './users-schemas.js';
import { SESSION_DAYS, type UserWithToken as UserWithTokenValue, type UsersService } from './users-service.js';

export interface UsersRouteOptions {
  users: UsersService;
  authLimit: { max: number; timeWindow: number };
  /** The editor's cookie sessions and their CSRF check. */
  sessions: BrowserSessions;
}

/** With `?session=cookie`: the token goes into the HttpOnly cookie, never into page script. */
function answer(sessions: BrowserSessions, request: FastifyRequest, reply: FastifyReply, cookie: boolean, user: UserWithTokenValue) {
  if (!cookie) return user;
  const { token, ...rest } = user;
  sessions.set(request, reply, token, SESSION_DAYS * 24 * 3600);
  return rest;
}

/** Sign-up and login: public, rate limited per client address. */
export const publicUserRoutes: FastifyPluginAsyncTypebox<UsersRouteOptions> = async (app, { users, authLimit, sessions }) => {
  // A cookie login is a write that sets a session: a foreign page may not force one (login CSRF).
  const cookieMode = (request: FastifyRequest & { query: { session?: 'cookie' } }): boolean => {
    if (request.query.session !== 'cookie') return false;
    sessions.requireSameOrigin(request);
    return true;
  };
  app.post(
    '/user',
    {
      config: { rateLimit: authLimit },
      schema: {
        tags: ['users'],
        operationId: 'signUp',
        summary: 'Sign up (creates a personal team)',
        security: [],
        querystring: SessionQuery,
        body: Ref(SignupBody, { examples: [{ name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' }] }),
        response: { 200: Ref(UserWithToken) },
      },
    },
    async (request, reply) => {
      const cookie = cookieMode(request);
      return answer(sessions, request, reply, cookie, await users.register(request.body));
    },
  );

  // Chartbrew's web app asks this before anyone signs in, to show sign-up or login. Its path is
  // under /app/, where the editor's pages are served (pages-routes.ts): an API path there wins.
  app.get(
    '/app/users',
    {
      schema: {
        tags: ['users'],
        operationId: 'anyUsers',
        summary: 'Whether anyone has signed up yet (nothing else is told)',
        security: [],
        response: { 200: Ref(AnyUsers) },
      },
    },
    async () => ({ areThereAnyUsers: await users.anyUsers() }),
  );

  app.post(
    '/user/login',
    {
      config: { rateLimit: authLimit },
      schema: {
        tags: ['users'],
        operationId: 'logIn',
        summary: 'Log in and get a session token',
        security: [],
        querystring: SessionQuery,
        body: Ref(LoginBody, { examples: [{ email: 'ada@example.com', password: 'correct horse battery' }] }),
        response: { 200: Ref(UserWithToken) },
      },
    },
    async (request, reply) => {
      const cookie = cookieMode(request);
      return answer(sessions, request, reply, cookie, await users.login(request.body.email, request.body.password));
    },
  );
};

export const userRoutes: FastifyPluginAsyncTypebox<Pick<UsersRouteOptions, 'users' | 'sessions'>> = async (app, { users, sessions }) => {
  app.post(
    '/user/logout',
    { schema: { tags: ['users'], operationId: 'logOut', summary: 'End the current session', response: { 200: Ref(LoggedOut) } } },
    async (request, reply) => {
      await users.logout(actorOf(request));
      sessions.clear(request, reply);
      return { loggedOut: true };
    },
  );

  app.post(
    '/user/relog',
    {
      schema: {
        tags: ['users'],
        operationId: 'renewSession',
        summary: "Renew the caller's session: a new 30-day token; the one presented ends five minutes later",
        response: { 200: Ref(UserWithToken) },
      },
    },
    async (request, reply) => {
      const renewed = await users.relog(actorOf(request));
      // A cookie session stays a cookie session: the new token replaces the cookie, never reaches the page.
      const cookie = !request.headers.authorization;
      return answer(sessions, request, reply, cookie, renewed);
    },
  );

  app.get('/user/me', { schema: { tags: ['users'], operationId: 'getMe', summary: 'The signed-in user', response: { 200: Ref(Me) } } }, async (request) =>
    users.me(actorOf(request)),
  );
};
