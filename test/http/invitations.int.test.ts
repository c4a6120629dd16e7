import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/crypto/tokens.js';
import { buildTestApp, type StoreKind, type TestApp } from '../helpers/app.js';
import { insertProject, type Person } from '../helpers/fixtures.js';

// Chartbrew's web client sends JSON headers on every call (client/src/slices/team.js, user.js).
const JSON_HEADERS = { accept: 'application/json', 'content-type': 'application/json' };
const APP_URL = 'https://charts.example.com';
const PASSWORD = 'correct horse battery';

interface Mail {
  to: string[];
  text: string;
}

/** The message as sent, with quoted-printable soft breaks and escapes undone. */
function decode(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;

describe.each<StoreKind>(['sqlite', 'postgres'])('team invitations (%s)', (store) => {
  let t: TestApp;
  let smtp: SMTPServer;
  const mails: Mail[] = [];
  let owner: Person;
  let projectId: number;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, done) {
        let raw = '';
        stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
        stream.on('end', () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address), text: decode(raw) });
          done();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const smtpPort = (smtp.server.address() as AddressInfo).port;
    t = await buildTestApp({
      store,
      env: { APP_URL, PLOTLINE_SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, PLOTLINE_SMTP_FROM: 'Plotline <team@example.com>' },
    });
    owner = await t.signup('Owner');
    projectId = await insertProject(t, owner.teamId, 'Sales');
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => smtp?.close(() => resolve(undefined)));
  });

  const invite = (payload: object, token = owner.token, teamId = owner.teamId) =>
    t.request({ method: 'POST', url: `/team/${teamId}/invite`, token, headers: JSON_HEADERS, payload });
  const signUpInvited = (inviteToken: string, email: string, name = 'Invited') =>
    t.request({ method: 'POST', url: '/user/invited', headers: JSON_HEADERS, payload: { email, password: PASSWORD, name, inviteToken } });
  const membersOf = async (teamId: number) => (await t.request({ method: 'GET', url: `/team/${teamId}/members`, token: owner.token })).json() as { user_id: number; role: string; projects: number[]; canExport: boolean }[];

  it("Chartbrew's invite body answers {url} once: APP_URL/invite?token=…; only the token's hash is stored", async () => {
    const res = await invite({ projects: [projectId], canExport: true, role: 'projectEditor' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.url).toMatch(new RegExp(`^${APP_URL}/invite\\?token=pli_[\\w-]{40,}$`));
    expect(body.emailed).toBe(false);
    expect(body.invitation).toMatchObject({ team_id: owner.teamId, role: 'projectEditor', projects: [projectId], canExport: true, email: null, status: 'pending', created_by: owner.userId });
    const token = tokenOf(body.url);

    const rows = await t.container.store.db.selectFrom('team_invitations').selectAll().where('id', '=', body.invitation.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toBe(hashToken(token));
    expect(JSON.stringify(rows)).not.toContain(token);

    const list = await t.request({ method: 'GET', url: `/team/${owner.teamId}/invite`, token: owner.token });
    expect(list.statusCode).toBe(200);
    expect(list.json()[0]).toEqual(body.invitation);
    expect(list.body).not.toContain(token);
  });

  it('expires after 7 days unless the body says otherwise; never more than 30', async () => {
    const byDefault = (await invite({ role: 'projectViewer', projects: [projectId] })).json().invitation;
    expect(new Date(byDefault.expiresAt).getTime() - new Date(byDefault.createdAt).getTime()).toBe(7 * 86_400_000);
    const short = (await invite({ role: 'projectViewer', projects: [projectId], expiresInDays: 3 })).json().invitation;
    expect(new Date(short.expiresAt).getTime() - new Date(short.createdAt).getTime()).toBe(3 * 86_400_000);
    const long = await invite({ role: 'projectViewer', expiresInDays: 31 });
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toContain('expiresInDays');
  });

  it('POST /user/invited signs the person up into the team with the invited role, projects and export right, once', async () => {
    const { url } = (await invite({ projects: [projectId], canExport: true, role: 'projectEditor' })).json();
    const email = `grace-${store}@example.com`;
    const res = await signUpInvited(tokenOf(url), email, 'Grace');
    expect(res.statusCode, res.body).toBe(200);
    const user = res.json();
    expect(Object.keys(user).sort()).toEqual(['email', 'id', 'name', 'token']);
    expect(user).toMatchObject({ name: 'Grace', email });

    expect((await membersOf(owner.teamId)).find((m) => m.user_id === user.id)).toMatchObject({ role: 'projectEditor', projects: [projectId], canExport: true });
    // The invited team is their team; no personal team is made for them.
    const teams = (await t.request({ method: 'GET', url: '/team', token: user.token })).json();
    expect(teams.map((team: { id: number }) => team.id)).toEqual([owner.teamId]);

    // Chartbrew's app accepts right after signing up through the link: the same user, the same link, the team.
    const accepted = await t.request({ method: 'POST', url: `/team/user/${user.id}`, token: user.token, headers: JSON_HEADERS, payload: { token: tokenOf(url) } });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ id: owner.teamId, TeamRoles: [expect.objectContaining({ user_id: user.id, role: 'projectEditor' })] });

    // Anyone else: the link is used.
    const again = await signUpInvited(tokenOf(url), `other-${store}@example.com`);
    expect(again.statusCode).toBe(410);
    expect(again.json()).toMatchObject({ code: 'INVITE_USED' });
    expect(again.json().error).toMatch(/already been used/);
    const someone = await t.signup('Someone');
    const stolen = await t.request({ method: 'POST', url: `/team/${owner.teamId}/invite/accept`, token: someone.token, headers: JSON_HEADERS, payload: { inviteToken: tokenOf(url) } });
    expect(stolen.statusCode).toBe(410);
    expect(stolen.json()).toMatchObject({ code: 'INVITE_USED' });
    const listed = (await t.request({ method: 'GET', url: `/team/${owner.teamId}/invite`, token: owner.token })).json();
    expect(listed.find((i: { used_by: number | null }) => i.used_by === user.id)).toMatchObject({ status: 'used', usedAt: expect.any(String) });
  });

  it('a signed-in user accepts with POST /team/{id}/invite/accept; another team in the path, or a member already, is refused', async () => {
    const { url } = (await invite({ role: 'projectViewer', projects: [projectId] })).json();
    const person = await t.signup('Joiner');
    const elsewhere = await t.request({ method: 'POST', url: `/team/${person.teamId}/invite/accept`, token: person.token, headers: JSON_HEADERS, payload: { inviteToken: tokenOf(url) } });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json()).toMatchObject({ code: 'INVITE_INVALID' });

    const res = await t.request({ method: 'POST', url: `/team/${owner.teamId}/invite/accept`, token: person.token, headers: JSON_HEADERS, payload: { inviteToken: tokenOf(url) } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: owner.teamId, name: expect.any(String) });
    expect((await membersOf(owner.teamId)).find((m) => m.user_id === person.userId)).toMatchObject({ role: 'projectViewer', projects: [projectId], canExport: false });

    const second = (await invite({ role: 'teamAdmin' })).json();
    const member = await t.request({ method: 'POST', url: `/team/${owner.teamId}/invite/accept`, token: person.token, payload: { inviteToken: tokenOf(second.url) } });
    expect(member.statusCode).toBe(409);
    expect(member.json()).toMatchObject({ code: 'ALREADY_MEMBER' });
    // Left unused: someone else may still take it.
    const list = (await t.request({ method: 'GET', url: `/team/${owner.teamId}/invite`, token: owner.token })).json();
    expect(list.find((i: { id: number }) => i.id === second.invitation.id).status).toBe('pending');

    // POST /team/user/{id} is for the caller only.
    const forOther = await t.request({ method: 'POST', url: `/team/user/${owner.userId}`, token: person.token, payload: { token: tokenOf(second.url) } });
    expect(forOther.statusCode).toBe(403);
  });

  it('expired and revoked links are 410 with their own codes; unknown ones 400', async () => {
    const expired = (await invite({ role: 'projectViewer', projects: [projectId] })).json();
    await t.container.store.db.updateTable('team_invitations').set({ expiresAt: new Date(Date.now() - 60_000).toISOString() }).where('id', '=', expired.invitation.id).execute();
    const late = await signUpInvited(tokenOf(expired.url), `late-${store}@example.com`);
    expect(late.statusCode).toBe(410);
    expect(late.json()).toMatchObject({ code: 'INVITE_EXPIRED' });
    expect(late.json().error).toMatch(/expired/);
    expect(await t.container.store.db.selectFrom('users').select('id').where('email', '=', `late-${store}@example.com`).execute()).toEqual([]);

    const revoked = (await invite({ role: 'projectViewer', projects: [projectId] })).json();
    const del = await t.request({ method: 'DELETE', url: `/team/${owner.teamId}/invite/${revoked.invitation.id}`, token: owner.token });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ deleted: true });
    const person = await t.signup('Revoked');
    const refused = await t.request({ method: 'POST', url: `/team/${owner.teamId}/invite/accept`, token: person.token, payload: { inviteToken: tokenOf(revoked.url) } });
    expect(refused.statusCode).toBe(410);
    expect(refused.json()).toMatchObject({ code: 'INVITE_REVOKED' });
    const list = (await t.request({ method: 'GET', url: `/team/${owner.teamId}/invite`, token: owner.token })).json();
    expect(list.find((i: { id: number }) => i.id === revoked.invitation.id)).toMatchObject({ status: 'revoked', revokedAt: expect.any(String) });
    expect(list.find((i: { id: number }) => i.id === expired.invitation.id).status).toBe('expired');

    for (const bad of ['pli_nothing', owner.token, '']) {
      const res = await signUpInvited(bad, `bad-${Math.random().toString(36).slice(2)}@example.com`);
      expect(res.statusCode, bad).toBe(400);
      if (bad !== '') expect(res.json()).toMatchObject({ code: 'INVITE_INVALID' });
    }
    // An invitation token is no bearer token.
    expect((await t.request({ method: 'GET', url: '/user/me', token: tokenOf(revoked.url) })).statusCode).toBe(401);
    // Another team's invitation id is not found.
    const stranger = await t.signup('Stranger');
    expect((await t.request({ method: 'DELETE', url: `/team/${stranger.teamId}/invite/${expired.invitation.id}`, token: stranger.token })).statusCode).toBe(404);
  });

  it('who may invite: those who manage members, never granting above their own role', async () => {
    const admin = await t.signup('Admin');
    const editor = await t.signup('Editor');
    await t.request({ method: 'POST', url: `/team/${owner.teamId}/members`, token: owner.token, payload: { email: admin.email, role: 'teamAdmin' } });
    await t.request({ method: 'POST', url: `/team/${owner.teamId}/members`, token: owner.token, payload: { email: editor.email, role: 'projectEditor', projects: [projectId] } });

    const asAdmin = await invite({ role: 'teamAdmin' }, admin.token);
    expect(asAdmin.statusCode).toBe(200);
    const ownerByAdmin = await invite({ role: 'teamOwner' }, admin.token);
    expect(ownerByAdmin.statusCode).toBe(403);
    expect(ownerByAdmin.json()).toMatchObject({ code: 'ROLE_TOO_HIGH' });
    const byEditor = await invite({ role: 'projectViewer', projects: [projectId] }, editor.token);
    expect(byEditor.statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: `/team/${owner.teamId}/invite`, token: editor.token })).statusCode).toBe(403);
    const outsider = await t.signup('Outsider');
    expect((await invite({ role: 'projectViewer' }, outsider.token)).statusCode).toBe(403);

    const foreignProject = await insertProject(t, outsider.teamId, 'Theirs');
    const foreign = await invite({ role: 'projectViewer', projects: [foreignProject] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error).toContain('body.projects');

    // An owner's invitation to make an owner cannot be revoked by an admin.
    const ownerInvite = (await invite({ role: 'teamOwner' })).json();
    const revoke = await t.request({ method: 'DELETE', url: `/team/${owner.teamId}/invite/${ownerInvite.invitation.id}`, token: admin.token });
    expect(revoke.statusCode).toBe(403);

    // A team API key is no person: it cannot accept.
    const key = (await t.request({ method: 'POST', url: `/team/${outsider.teamId}/apikey`, token: outsider.token, payload: { name: 'k' } })).json().token;
    const byKey = await t.request({ method: 'POST', url: `/team/${owner.teamId}/invite/accept`, token: key, payload: { inviteToken: tokenOf(asAdmin.json().url) } });
    expect(byKey.statusCode).toBe(403);
  });

  it("without a role (Chartbrew's e-mail invite body) the invitation is for a projectViewer", async () => {
    const res = await invite({ email: `viewer-${store}@example.com`, projects: [projectId], canExport: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().invitation).toMatchObject({ role: 'projectViewer', projects: [projectId], email: `viewer-${store}@example.com` });
  });

  it('an invitation with an e-mail is sent over SMTP, and only that address may use it', async () => {
    mails.length = 0;
    const address = `Ada.${store}@Example.com`;
    const res = await invite({ role: 'projectViewer', projects: [projectId], email: address });
    expect(res.statusCode, res.body).toBe(200);
    const { url, emailed, invitation } = res.json();
    expect(emailed).toBe(true);
    expect(invitation.email).toBe(address.toLowerCase());
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toEqual([address.toLowerCase()]);
    // The editor asks beforehand whether an invitation will be e-mailed.
    const settings = await t.request({ method: 'GET', url: `/team/${owner.teamId}/invite/email`, token: owner.token });
    expect(settings.json()).toEqual({ configured: true });
    expect(mails[0]!.text).toContain(url);
    expect(mails[0]!.text).toMatch(/From: Plotline <team@example\.com>/);
    expect(mails[0]!.text).toMatch(/projectViewer/);

    const wrong = await signUpInvited(tokenOf(url), `mallory-${store}@example.com`);
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ code: 'INVITE_EMAIL_MISMATCH' });
    const right = await signUpInvited(tokenOf(url), address);
    expect(right.statusCode, right.body).toBe(200);
  });

  it('two uses of one link at once: exactly one joins', async () => {
    const { url } = (await invite({ role: 'projectViewer', projects: [projectId] })).json();
    const a = await t.signup('RaceA');
    const b = await t.signup('RaceB');
    const results = await Promise.all([
      t.request({ method: 'POST', url: `/team/${owner.teamId}/invite/accept`, token: a.token, payload: { inviteToken: tokenOf(url) } }),
      t.request({ method: 'POST', url: `/team/${owner.teamId}/invite/accept`, token: b.token, payload: { inviteToken: tokenOf(url) } }),
      signUpInvited(tokenOf(url), `race-${store}@example.com`),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 410, 410]);
    const joined = (await membersOf(owner.teamId)).filter((m) => [a.userId, b.userId].includes(m.user_id));
    const signedUp = await t.container.store.db.selectFrom('users').select('id').where('email', '=', `race-${store}@example.com`).execute();
    expect(joined.length + signedUp.length).toBe(1);
  });
});

describe('team invitations without SMTP, and with sign-up closed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { PLOTLINE_SIGNUP: 'closed' } });
  });
  afterAll(() => t.close());

  it('an invitation with an e-mail is not e-mailed, and its link still signs the person up', async () => {
    const owner = await t.signup('Owner');
    const closed = await t.request({ method: 'POST', url: '/user', payload: { name: 'Nope', email: 'nope@example.com', password: PASSWORD } });
    expect(closed.json()).toMatchObject({ code: 'SIGNUP_CLOSED' });

    const settings = await t.request({ method: 'GET', url: `/team/${owner.teamId}/invite/email`, token: owner.token });
    expect(settings.json()).toEqual({ configured: false });
    expect((await t.request({ method: 'GET', url: `/team/${owner.teamId}/invite/email` })).statusCode).toBe(401);
    const res = await t.request({ method: 'POST', url: `/team/${owner.teamId}/invite`, token: owner.token, payload: { role: 'teamAdmin', email: 'lin@example.com' } });
    expect(res.json()).toMatchObject({ emailed: false, invitation: { email: 'lin@example.com', role: 'teamAdmin' } });
    expect(res.json().url).toMatch(/^http:\/\/localhost:4019\/invite\?token=pli_/);
    // The link opens the editor's invitation page, token and all.
    const opened = await t.request({ method: 'GET', url: new URL(res.json().url).pathname + new URL(res.json().url).search });
    expect(opened.statusCode).toBe(302);
    expect(opened.headers.location).toBe(`/app/invite${new URL(res.json().url).search}`);
    const signup = await t.request({ method: 'POST', url: '/user/invited', payload: { name: 'Lin', email: 'lin@example.com', password: PASSWORD, inviteToken: tokenOf(res.json().url) } });
    expect(signup.statusCode, signup.body).toBe(200);
    const teams = (await t.request({ method: 'GET', url: '/team', token: signup.json().token })).json();
    expect(teams).toEqual([expect.objectContaining({ id: owner.teamId, TeamRoles: expect.arrayContaining([expect.objectContaining({ role: 'teamAdmin' })]) })]);

    const taken = await t.request({ method: 'POST', url: `/team/${owner.teamId}/invite`, token: owner.token, payload: { role: 'projectViewer' } });
    const again = await t.request({ method: 'POST', url: '/user/invited', payload: { name: 'Lin', email: 'lin@example.com', password: PASSWORD, inviteToken: tokenOf(taken.json().url) } });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'EMAIL_TAKEN' });
  });
});

describe('team invitations with an SMTP server that never answers', () => {
  let t: TestApp;
  let silent: Server;
  const sockets = new Set<Socket>();
  beforeAll(async () => {
    // Accepts connections and never greets: the invitation must still be answered, not wait minutes.
    silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    t = await buildTestApp({ env: { PLOTLINE_SMTP_URL: `smtp://127.0.0.1:${(silent.address() as AddressInfo).port}` } });
  });
  afterAll(async () => {
    await t?.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent?.close(resolve));
  });

  it('answers the link with emailed: false once the server stays silent past the greeting limit, and logs why', async () => {
    const owner = await t.signup('Owner');
    const res = await t.request({ method: 'POST', url: `/team/${owner.teamId}/invite`, token: owner.token, payload: { role: 'projectViewer', email: 'quiet@example.com' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ emailed: false, invitation: { status: 'pending', email: 'quiet@example.com' } });
    expect(res.json().url).toMatch(/\/invite\?token=pli_/);
    const line = t.logs.lines.map((l) => JSON.parse(l) as { event?: string; detail?: string }).find((l) => l.event === 'invitation_mail_failed');
    expect(line?.detail).toMatch(/SMTP server refused or could not be reached/);
  });
});
