import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../platform/auth.js';
import { LoginBody, LoggedOut, Me, SignupBody, UserWithToken } from './schemas.js';
import type { UsersService } from './service.js';

export interface UsersRouteOptions {
  users: UsersService;
  authLimit: { max: number; timeWindow: number };
}

/** Sign-up and login: public, rate limited per client address. */
export const publicUserRoutes: FastifyPluginAsyncTypebox<UsersRouteOptions> = async (app, { users, authLimit }) => {
  app.post(
    '/user',
    {
      config: { rateLimit: authLimit },
      schema: { tags: ['users'], summary: 'Sign up (creates a personal team)', security: [], body: SignupBody, response: { 200: UserWithToken } },
    },
    async (request) => users.register(request.body),
  );

  app.post(
    '/user/login',
    {
      config: { rateLimit: authLimit },
      schema: { tags: ['users'], summary: 'Log in and get a session token', security: [], body: LoginBody, response: { 200: UserWithToken } },
    },
    async (request) => users.login(request.body.email, request.body.password),
  );
};

export const userRoutes: FastifyPluginAsyncTypebox<Pick<UsersRouteOptions, 'users'>> = async (app, { users }) => {
  app.post(
    '/user/logout',
    { schema: { tags: ['users'], summary: 'End the current session', response: { 200: LoggedOut } } },
    async (request) => {
      await users.logout(actorOf(request));
      return { loggedOut: true };
    },
  );

  app.get('/user/me', { schema: { tags: ['users'], summary: 'The signed-in user', response: { 200: Me } } }, async (request) =>
    users.me(actorOf(request)),
  );
};
