import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ok } from '../api/client';
import { keys } from '../api/queries';
import { useRouter } from '../router';
import { ErrorBox, Field, Loading, Success } from '../ui';

/** Whether anyone has signed up yet: a new instance opens on sign-up, not on a login nobody can use. */
const anyUsersQuery = { queryKey: ['any-users'] as const, queryFn: () => ok(api.GET('/app/users')) };

/** Sign up or log in; the API answers with an HttpOnly session cookie (`?session=cookie`). */
export function AuthScreen() {
  const anyUsers = useQuery(anyUsersQuery);
  if (anyUsers.isPending) return <Loading what="the sign-in page" />;
  // Whatever the answer (an error too), the form works: only its first mode depends on it.
  const firstRun = anyUsers.data?.areThereAnyUsers === false;
  return <AuthForm firstRun={firstRun} />;
}

function AuthForm({ firstRun }: { firstRun: boolean }) {
  const [mode, setMode] = useState<'login' | 'signup'>(firstRun ? 'signup' : 'login');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const client = useQueryClient();
  const enter = useMutation({
    mutationFn: () =>
      mode === 'signup'
        ? ok(api.POST('/user', { params: { query: { session: 'cookie' } }, body: { name, email, password } }))
        : ok(api.POST('/user/login', { params: { query: { session: 'cookie' } }, body: { email, password } })),
    // Signed in: asking who is signed in again opens the editor.
    onSuccess: () => client.invalidateQueries({ queryKey: keys.me }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    enter.mutate();
  };

  return (
    <main className="auth">
      <h1 className="brand">Plotline</h1>
      <form className="panel" onSubmit={submit} aria-labelledby="auth-title">
        <h2 id="auth-title">{mode === 'signup' ? (firstRun ? 'Welcome: create the first account' : 'Create your account') : 'Log in'}</h2>
        {firstRun && mode === 'signup' ? <p className="hint">Nobody has signed up on this Plotline yet. The first account gets its own team, which it owns.</p> : null}
        {mode === 'signup' ? (
          <Field label="Name">
            <input name="name" autoComplete="name" required value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
        ) : null}
        <Field label="Email">
          <input name="email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <Field label="Password" {...(mode === 'signup' ? { hint: 'At least 8 characters' } : {})}>
          <input name="password" type="password" autoComplete={mode === 'signup' ? 'new-password' : 'current-password'} required value={password} onChange={(e) => setPassword(e.target.value)} />
        </Field>
        <ErrorBox error={enter.error} />
        <button type="submit" className="primary" disabled={enter.isPending}>
          {mode === 'signup' ? 'Sign up' : 'Log in'}
        </button>
        <p>
          {mode === 'signup' ? 'Already have an account? ' : 'New here? '}
          <button type="button" className="link" onClick={() => (setMode(mode === 'signup' ? 'login' : 'signup'), enter.reset())}>
            {mode === 'signup' ? 'Log in' : 'Create an account'}
          </button>
        </p>
      </form>
    </main>
  );
}

/**
 * `/app/invite?token=…`, where an invitation link leads: someone without an account signs up
 * straight into the team (`POST /user/invited`, then a cookie login); someone signed in joins it.
 */
export function InviteScreen({ signedIn }: { signedIn: boolean }) {
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  const client = useQueryClient();
  const { navigate } = useRouter();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const me = useQuery({ queryKey: keys.me, queryFn: () => ok(api.GET('/user/me')), enabled: signedIn });
  const done = async () => {
    await client.invalidateQueries({ queryKey: keys.teams });
    await client.invalidateQueries({ queryKey: keys.me });
    navigate('/');
  };
  const [hasAccount, setHasAccount] = useState(false);
  // Someone who has an account logs in here first, then joins.
  const logIn = useMutation({
    mutationFn: () => ok(api.POST('/user/login', { params: { query: { session: 'cookie' } }, body: { email, password } })),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.me }),
  });
  const signUp = useMutation({
    mutationFn: async () => {
      await ok(api.POST('/user/invited', { body: { name, email, password, inviteToken: token } }));
      // The editor's session is a cookie: log in with the account just made.
      await ok(api.POST('/user/login', { params: { query: { session: 'cookie' } }, body: { email, password } }));
    },
    onSuccess: done,
  });
  const join = useMutation({
    mutationFn: () => ok(api.POST('/team/user/{user_id}', { params: { path: { user_id: me.data!.id } }, body: { token } })),
    onSuccess: done,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (hasAccount) logIn.mutate();
    else signUp.mutate();
  };
  return (
    <main className="auth">
      <h1 className="brand">Plotline</h1>
      {token === '' ? (
        <div className="panel">
          <h2>Invitation</h2>
          <ErrorBox error="This invitation link has no token: open the whole link you were sent, or ask the team for a new one." />
        </div>
      ) : signedIn ? (
        <div className="panel">
          <h2 id="auth-title">Join the team</h2>
          <p>You are signed in{me.data ? ` as ${me.data.email}` : ''}. Accept the invitation to join the team with the role it grants.</p>
          <ErrorBox error={join.error} />
          <Success message={join.isSuccess ? 'Joined.' : null} />
          <button type="button" className="primary" onClick={() => join.mutate()} disabled={join.isPending || !me.data}>
            Join the team
          </button>
        </div>
      ) : (
        <form className="panel" onSubmit={submit} aria-labelledby="auth-title">
          <h2 id="auth-title">{hasAccount ? 'You are invited: log in to join' : 'You are invited: create your account'}</h2>
          <p className="hint">You join the team that invited you, with the role and dashboards the invitation grants.</p>
          {hasAccount ? null : (
            <Field label="Name">
              <input name="name" autoComplete="name" required value={name} onChange={(e) => setName(e.target.value)} />
            </Field>
          )}
          <Field label="Email">
            <input name="email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          </Field>
          <Field label="Password" {...(hasAccount ? {} : { hint: 'At least 8 characters' })}>
            <input name="password" type="password" autoComplete={hasAccount ? 'current-password' : 'new-password'} required value={password} onChange={(e) => setPassword(e.target.value)} />
          </Field>
          <ErrorBox error={hasAccount ? logIn.error : signUp.error} />
          <button type="submit" className="primary" disabled={signUp.isPending || logIn.isPending}>
            {hasAccount ? 'Log in' : 'Sign up and join'}
          </button>
          <p>
            {hasAccount ? 'No account yet? ' : 'Already have an account? '}
            <button type="button" className="link" onClick={() => setHasAccount(!hasAccount)}>
              {hasAccount ? 'Create one' : 'Log in'}
            </button>
          </p>
        </form>
      )}
    </main>
  );
}
